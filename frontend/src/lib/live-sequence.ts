/**
 * Which live events to hand on, by their seq in the user's event log: each once, whether it came
 * over the socket, from the catch-up call after a reconnect, or from polling. Pure, so it is tested
 * on its own (live-sequence.test.ts).
 */
export class LiveSequence {
  /** Every seq up to this one has been handled (null: nothing known yet). */
  private handledUpTo: number | null;
  /** Handled seqs above handledUpTo (arrived ahead of a gap). */
  private readonly ahead = new Set<number>();

  constructor(start: number | null = null) {
    this.handledUpTo = start;
  }

  /** The seq to ask the catch-up call from (`after`), or null to ask only where the log stands. */
  get after(): number | null {
    return this.handledUpTo;
  }

  /** Whether `seq` is new (then it counts as handled); false for a duplicate. */
  accept(seq: number): boolean {
    if (this.handledUpTo === null) {
      this.handledUpTo = seq;
      return true;
    }
    if (seq <= this.handledUpTo || this.ahead.has(seq)) return false;
    this.ahead.add(seq);
    while (this.ahead.has(this.handledUpTo + 1)) {
      this.handledUpTo += 1;
      this.ahead.delete(this.handledUpTo);
    }
    return true;
  }

  /** Whether some seq below one already handled is still missing (the catch-up call fills it). */
  get hasGap(): boolean {
    return this.ahead.size > 0;
  }

  /**
   * The server's newest seq. Starting out, or when the server has fewer than we think (another
   * account in this tab, a restored database), we start from there.
   */
  settle(latest: number): void {
    if (this.handledUpTo === null || this.handledUpTo > latest) {
      this.handledUpTo = latest;
      this.ahead.clear();
    }
  }

  /** Past a gap the server no longer has (purged): what was missed is gone, go on from `to`. */
  skipTo(to: number): void {
    if (this.handledUpTo !== null && to <= this.handledUpTo) return;
    this.handledUpTo = to;
    for (const seq of this.ahead) if (seq <= to) this.ahead.delete(seq);
  }
}
