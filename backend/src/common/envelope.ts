/** The response envelope every /api endpoint uses (SPEC §3 "Response envelope"). */
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
}

export interface ErrorEnvelope {
  success: false;
  error: string;
  /** Per-field validation messages, keyed by request field name. */
  fields?: Record<string, string>;
  /** Machine-readable context, such as the individual health checks. */
  details?: unknown;
}

export const ok = <T>(data: T): SuccessEnvelope<T> => ({ success: true, data });
