/**
 * Marks `<html data-session="resolving">` when the page carries the fm_signed_in hint: the session
 * is then being asked for (account-menu.ts), and CSS shows the header's Loading button in place of
 * Sign Up and Sign In (SPEC §2 "Header"), so a signed-in user never sees "Sign In" flash. It runs
 * inline in `<head>` (SESSION_GATE_SCRIPT), before the first paint; serialised with toString(), so
 * it must use nothing from outside itself.
 */
export function markSessionResolving(hint: string): void {
  if (document.cookie.split(';').some((part) => part.trim() === hint)) document.documentElement.dataset['session'] = 'resolving';
}

/** The session is known (signed in or not): the header shows the account menu or Sign In again. */
export function markSessionResolved(): void {
  delete document.documentElement.dataset['session'];
}

export const SESSION_GATE_SCRIPT = `(${markSessionResolving.toString()})("fm_signed_in=1");`;
