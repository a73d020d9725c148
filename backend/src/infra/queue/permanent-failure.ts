/**
 * A job's work can never succeed, whatever the number of attempts (an SMTP server refused the
 * recipient for good): the job fails at once and waits in the failed list for an operator instead
 * of retrying for hours.
 */
export class PermanentFailure extends Error {
  override readonly name = 'PermanentFailure';
}
