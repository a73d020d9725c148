import { describe, expect, it } from '@jest/globals';
import { createApiClient } from './api';
import { routeQuery } from './route-query';

/** The URL the typed client requests with `query` (the query string is what the API reads). */
async function requestedSearch(path: '/api/listings' | '/api/staff/inbox', query: Parameters<typeof routeQuery>[1]): Promise<string> {
  let url = '';
  const fetch = async (request: Request) => {
    url = request.url;
    return new Response(JSON.stringify({ success: true, data: {} }), { headers: { 'content-type': 'application/json' } });
  };
  const client = createApiClient('http://127.0.0.1:4000');
  if (path === '/api/listings') await client.GET(path, { params: { query: routeQuery(path, query) }, fetch });
  else await client.GET(path, { params: { query: routeQuery(path, query) }, fetch });
  return new URL(url).search;
}

describe('routeQuery', () => {
  it("sends a page's URL filters as they are, the open-ended per-category ranges included", async () => {
    const filters = new URLSearchParams('category=equipment&q=tractor&year_min=2010&hours_max=5000&sort=newest');
    expect(await requestedSearch('/api/listings', filters)).toBe('?category=equipment&q=tractor&year_min=2010&hours_max=5000&sort=newest');
  });

  it('writes numbers and flags as the text the API parses, and leaves out absent values', async () => {
    expect(await requestedSearch('/api/listings', { limit: 4, verified: true, cursor: undefined, location: null, sort: 'nearest' })).toBe(
      '?limit=4&verified=true&sort=nearest',
    );
  });

  it('keeps an empty value the visitor sent, for the API to judge', async () => {
    expect(await requestedSearch('/api/listings', new URLSearchParams('q=&category=land'))).toBe('?q=&category=land');
  });

  it('serves every GET route with a query (the staff inbox filters)', async () => {
    expect(await requestedSearch('/api/staff/inbox', { kind: 'report', status: 'open', before: 'abc' })).toBe(
      '?kind=report&status=open&before=abc',
    );
  });
});
