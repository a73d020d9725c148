import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { useTestApp } from '../testing/test-context.js';
import { startTestApp } from '../testing/test-app.js';

describe('a wrong method on an API path', () => {
  const { db, t } = useTestApp();

  it.each([
    ['DELETE', '/api/categories', 'GET, HEAD'],
    ['PUT', '/api/categories/1', 'GET, HEAD'],
    ['POST', '/api/health', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/contact', 'POST'],
    ['PATCH', '/api/contact/', 'POST'],
  ])('answers %s %s with 405, the envelope and Allow: %s', async (method, url, allow) => {
    const response = await t.app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toEqual({ success: false, error: `${method} is not allowed on ${url}; use ${allow}.` });
  });

  it.each(['POST', 'PUT', 'DELETE'])('answers %s /metrics (outside /api) the same way: 405 with Allow: GET, HEAD', async (method) => {
    const response = await t.app.inject({ method: method as 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toEqual({ success: false, error: `${method} is not allowed on /metrics; use GET, HEAD.` });
  });

  it('still answers a path that does not exist with 404', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/no-such-thing' });
    expect([response.statusCode, response.json()]).toEqual([
      404,
      { success: false, error: 'No API endpoint at DELETE /api/no-such-thing' },
    ]);
  });

  it('answers 405 with the site mounted too, whose page routes catch every other GET; a part too long for any id is 414 there too', async () => {
    const frontendDir = fileURLToPath(new URL('../../../frontend/dist', import.meta.url));
    const withSite = await startTestApp(db, { FRONTEND_DIR: frontendDir });
    try {
      const response = await withSite.app.inject({ method: 'GET', url: '/api/contact' });
      expect([response.statusCode, response.headers.allow]).toEqual([405, 'POST']);
      const metrics = await withSite.app.inject({ method: 'POST', url: '/metrics' });
      expect([metrics.statusCode, metrics.headers.allow]).toEqual([405, 'GET, HEAD']);
      expect((await withSite.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
      // An id too long for the router is refused as too long, for GET (which the page routes would catch) as for DELETE.
      for (const method of ['GET', 'DELETE'] as const) {
        const overlong = await withSite.app.inject({ method, url: `/api/listings/${'x'.repeat(101)}` });
        expect([method, overlong.statusCode, overlong.json()]).toEqual([
          method,
          414,
          { success: false, error: 'A part of the path is longer than 100 characters.' },
        ]);
      }
    } finally {
      await withSite.close();
    }
  });
});
