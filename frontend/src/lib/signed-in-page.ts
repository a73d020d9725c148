import type { AstroGlobal } from 'astro';
import { signInPathFor } from './redirect';

/**
 * Pages that need an account (SPEC §2 route table: /profile, /services, /messages, /post-listing, the
 * staff pages) are rendered per request so that a visitor without the fm_signed_in hint is sent to
 * sign in by the server, before any script loads: no blank page while React arrives, and a 302
 * leaves no history entry to come Back to. The browser keeps the URL's #fragment across the redirect
 * (RFC 9110 §10.2.2), and the sign-in page carries it on (a profile tab). The hint grants nothing:
 * with it, the island still asks the API, which decides.
 */
export function signInRedirectForVisitor(astro: AstroGlobal): Response | undefined {
  if (astro.cookies.get('fm_signed_in')?.value === '1') {
    astro.response.headers.set('cache-control', 'private, no-store');
    return undefined;
  }
  return astro.redirect(signInPathFor(astro.url), 302);
}
