import { describe, expect, it } from '@jest/globals';
import { apiBaseUrl, createApiClient, hasSignedInHint, withSessionRefresh } from './api';

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

describe('createApiClient headers', () => {
  it('sends X-Requested-With on every call', async () => {
    const seen: (string | null)[] = [];
    const client = createApiClient('http://127.0.0.1:4000');
    await client.POST('/api/auth/signout', {
      fetch: async (request: Request) => {
        seen.push(request.headers.get('x-requested-with'));
        return new Response(JSON.stringify({ success: true, data: { message: 'Signed out' } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    expect(seen).toEqual(['fieldmarket']);
  });
});

describe('withSessionRefresh', () => {
  const json = (status: number) => new Response(JSON.stringify({ success: status < 400 }), { status });

  function fakeServer(answers: Record<string, number[]>) {
    const calls: string[] = [];
    const send = async (request: Request) => {
      const path = new URL(request.url).pathname;
      calls.push(`${request.method} ${path} ${await request.text()}`.trim());
      const queue = answers[path] ?? [200];
      return json(queue.length > 1 ? (queue.shift() as number) : (queue[0] as number));
    };
    return { calls, send };
  }

  it('refreshes once on a 401 and sends the original request again, body included', async () => {
    const server = fakeServer({ '/api/profile': [401, 200], '/api/auth/refresh': [200] });
    let expired = 0;
    const fetch = withSessionRefresh(server.send, { isSignedIn: () => true, onSessionExpired: () => expired++ });
    const response = await fetch(new Request('http://x/api/profile', { method: 'PUT', body: '{"full_name":"Jane"}' }));
    expect(response.status).toBe(200);
    expect(server.calls).toEqual([
      'PUT /api/profile {"full_name":"Jane"}',
      'POST /api/auth/refresh',
      'PUT /api/profile {"full_name":"Jane"}',
    ]);
    expect(expired).toBe(0);
  });

  it('gives up when the refresh fails, and says the session expired', async () => {
    const server = fakeServer({ '/api/profile': [401], '/api/auth/refresh': [401] });
    let expired = 0;
    const fetch = withSessionRefresh(server.send, { isSignedIn: () => true, onSessionExpired: () => expired++ });
    const response = await fetch(new Request('http://x/api/profile'));
    expect(response.status).toBe(401);
    expect(server.calls).toEqual(['GET /api/profile', 'POST /api/auth/refresh']);
    expect(expired).toBe(1);
  });

  it('never refreshes for a visitor, nor for a wrong password or code', async () => {
    const server = fakeServer({ '/api/profile': [401], '/api/auth/signin': [401] });
    const visitor = withSessionRefresh(server.send, { isSignedIn: () => false, onSessionExpired: () => undefined });
    await visitor(new Request('http://x/api/profile'));
    const member = withSessionRefresh(server.send, { isSignedIn: () => true, onSessionExpired: () => undefined });
    await member(new Request('http://x/api/auth/signin', { method: 'POST', body: '{}' }));
    expect(server.calls).toEqual(['GET /api/profile', 'POST /api/auth/signin {}']);
  });

  it('shares one refresh between calls that fail together', async () => {
    const server = fakeServer({ '/api/a': [401, 200], '/api/b': [401, 200], '/api/auth/refresh': [200] });
    const fetch = withSessionRefresh(server.send, { isSignedIn: () => true, onSessionExpired: () => undefined });
    await Promise.all([fetch(new Request('http://x/api/a')), fetch(new Request('http://x/api/b'))]);
    expect(server.calls.filter((call) => call.includes('refresh'))).toHaveLength(1);
  });
});

describe('hasSignedInHint', () => {
  it('reads the fm_signed_in cookie among others', () => {
    expect(hasSignedInHint('cookieConsent=accepted; fm_signed_in=1')).toBe(true);
    expect(hasSignedInHint('fm_signed_in=0')).toBe(false);
    expect(hasSignedInHint('')).toBe(false);
  });
});
