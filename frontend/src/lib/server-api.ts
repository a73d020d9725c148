/**
 * Headers for calls a server-rendered page makes to the API on the visitor's behalf: their cookies
 * (so the API knows who is looking: saved, is_owner), their browser, and the client address the
 * trusted proxy gave the page (so views and per-client limits count the visitor, not the loopback).
 */
export function visitorHeaders(request: Request, clientAddress: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookie = request.headers.get('cookie');
  if (cookie) headers['cookie'] = cookie;
  const agent = request.headers.get('user-agent');
  if (agent) headers['user-agent'] = agent;
  const forwarded = request.headers.get('x-forwarded-for') ?? clientAddress;
  if (forwarded) headers['x-forwarded-for'] = forwarded;
  return headers;
}

/** Astro.clientAddress throws where the adapter cannot tell; the page does not need it then. */
export function clientAddressOf(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
