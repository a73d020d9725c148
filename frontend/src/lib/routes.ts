/** SPEC §2: after sign-in, with no redirect asked for, the destination is /browse. */
export const AFTER_SIGN_IN_DEFAULT = '/browse';
