/** Fastify's router refuses a path parameter longer than this (its default, kept) before any route runs. */
export const MAX_PATH_PARAMETER_LENGTH = 100;

export const PATH_PART_TOO_LONG = `A part of the path is longer than ${MAX_PATH_PARAMETER_LENGTH} characters.`;

/** A segment of `path` longer than the router takes as a parameter: no route with a parameter there can match it. */
export function hasOverlongPathPart(path: string): boolean {
  return path.split('/').some((part) => part.length > MAX_PATH_PARAMETER_LENGTH);
}
