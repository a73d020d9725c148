import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api-types';

export type ApiClient = Client<paths>;

/**
 * Typed client for the Fieldmarket API; types come from api-types.ts, generated from openapi.yaml
 * (`npm run api-types -w frontend`). Paths in the contract start with /api, so `baseUrl` is the
 * origin only.
 */
export function createApiClient(baseUrl: string): ApiClient {
  return createClient<paths>({ baseUrl });
}

/**
 * Where the API is. In the browser it is the page's own origin (''). Pages rendered on the server
 * run inside the web process and call it over loopback: INTERNAL_API_URL when set, else
 * http://127.0.0.1:$PORT.
 */
export function apiBaseUrl(runtime: { browser: boolean; env: Readonly<Record<string, string | undefined>> }): string {
  if (runtime.browser) return '';
  const configured = runtime.env['INTERNAL_API_URL']?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  return `http://127.0.0.1:${runtime.env['PORT']?.trim() || '3000'}`;
}

/** The client for this runtime: islands and server-rendered pages import this one. */
export const api = createApiClient(
  apiBaseUrl({ browser: typeof window !== 'undefined', env: typeof process === 'undefined' ? {} : process.env }),
);
