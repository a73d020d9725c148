/**
 * The fm_signed_in cookie: readable by page script, grants nothing, says "load the signed-in parts".
 * Its own module so a visitor's page can check it without loading the API client.
 */
export function hasSignedInHint(cookie: string): boolean {
  return cookie.split(';').some((part) => part.trim() === 'fm_signed_in=1');
}
