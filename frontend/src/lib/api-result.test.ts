import { describe, expect, it, jest } from '@jest/globals';
import { settle as settleListingsCall } from '../features/listings/listings-api';
import { createApiClient } from './api';
import { NETWORK_ERROR, settle } from './api-result';

/** The real typed client over a fetch that answers `response` (or fails, as an offline phone's does). */
const clientAnswering = (response: () => Response) => createApiClient('http://127.0.0.1:4000', undefined, async () => response());

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('settle: one reading of every API answer, for the islands and the listings pages alike', () => {
  it('gives the data of an envelope', async () => {
    const client = clientAnswering(() => json(200, { success: true, data: [{ slug: 'land' }] }));
    expect(await settle(client.GET('/api/categories'), 'Failed')).toEqual({ ok: true, data: [{ slug: 'land' }] });
  });

  it("answers a network failure with the spec's network message (status 0), never the browser's 'Failed to fetch'", async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createApiClient('http://127.0.0.1:4000', undefined, () => Promise.reject(new TypeError('Failed to fetch')));
    for (const outcome of [
      await settle(client.GET('/api/categories'), 'Failed'),
      await settleListingsCall(() => client.GET('/api/categories')),
    ]) {
      expect(outcome).toEqual({ ok: false, status: 0, error: NETWORK_ERROR, fields: {} });
    }
    quiet.mockRestore();
  });

  it('keeps the refusal, its fields and its Retry-After', async () => {
    const client = clientAnswering(() =>
      json(429, { success: false, error: 'Too many requests', fields: { email: 'Slow down' } }, { 'retry-after': '30' }),
    );
    expect(await settleListingsCall(() => client.GET('/api/categories'))).toEqual({
      ok: false,
      status: 429,
      error: 'Too many requests',
      fields: { email: 'Slow down' },
      retryAfter: '30',
    });
  });

  it("does not read a 2xx that is not our envelope as data (a proxy's JSON); the listings calls say the status", async () => {
    const client = clientAnswering(() => json(200, { status: 'ok', portal: 'Sign in to the farm Wi-Fi' }));
    expect(await settle(client.GET('/api/categories'), 'Failed to load categories')).toMatchObject({
      ok: false,
      error: 'Failed to load categories',
    });
    expect(await settleListingsCall(() => client.GET('/api/categories'))).toMatchObject({ ok: false, error: 'HTTP error! status: 200' });
  });

  it("answers a captive portal's HTML page as the network message: it is not our server", async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = clientAnswering(
      () => new Response('<html>Captive portal</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    );
    expect(await settle(client.GET('/api/categories'), 'Failed')).toMatchObject({ ok: false, status: 0, error: NETWORK_ERROR });
    quiet.mockRestore();
  });
});
