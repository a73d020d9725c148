import { describe, expect, it } from '@jest/globals';
import { apiBaseUrl, createApiClient } from './api';

describe('apiBaseUrl', () => {
  it('uses the page origin in the browser, whatever the environment says', () => {
    expect(apiBaseUrl({ browser: true, env: { INTERNAL_API_URL: 'http://api.internal:8080', PORT: '4000' } })).toBe('');
  });

  it('uses INTERNAL_API_URL on the server, without a trailing slash', () => {
    expect(apiBaseUrl({ browser: false, env: { INTERNAL_API_URL: 'http://api.internal:8080/', PORT: '4000' } })).toBe(
      'http://api.internal:8080',
    );
  });

  it('otherwise calls the web process over loopback on its port', () => {
    expect(apiBaseUrl({ browser: false, env: { PORT: '4000' } })).toBe('http://127.0.0.1:4000');
    expect(apiBaseUrl({ browser: false, env: { INTERNAL_API_URL: '  ' } })).toBe('http://127.0.0.1:3000');
  });
});

describe('createApiClient', () => {
  it('sends requests to the contract path under the base URL', async () => {
    const requested: string[] = [];
    const client = createApiClient('http://127.0.0.1:4000');
    const { response } = await client.GET('/api/categories', {
      fetch: async (request: Request) => {
        requested.push(request.url);
        return new Response(JSON.stringify({ success: true, data: [] }), { headers: { 'content-type': 'application/json' } });
      },
    });
    expect(response.status).toBe(200);
    expect(requested).toEqual(['http://127.0.0.1:4000/api/categories']);
  });
});
