import type { AppConfig } from '../config/env.js';

/** True for our own origin (PUBLIC_URL) and the origins listed in CORS_ORIGINS. */
export function isAllowedOrigin(origin: string, config: Pick<AppConfig, 'publicUrl' | 'corsOrigins'>): boolean {
  let normalized: string;
  try {
    normalized = new URL(origin).origin;
  } catch {
    return false;
  }
  return normalized === new URL(config.publicUrl).origin || config.corsOrigins.some((allowed) => allowed === normalized);
}
