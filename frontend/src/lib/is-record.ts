/** True for plain JSON objects (not null, not arrays): the first check when reading API bodies. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
