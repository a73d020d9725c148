/**
 * An id in UUID text form (RFC 9562: 8-4-4-4-12 hex digits), of any version and in either case.
 * Ids are checked by shape only: whether one names a row is the lookup's answer (404), so a
 * well-formed id from another generator (v1, v7) is "not found", never "malformed".
 */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_TEXT.test(value);
}
