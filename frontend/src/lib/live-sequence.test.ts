import { describe, expect, it } from '@jest/globals';
import { LiveSequence } from './live-sequence';

describe('LiveSequence', () => {
  it('hands on each seq once, in whatever order and from whatever source it arrives', () => {
    const sequence = new LiveSequence(4);
    expect(sequence.accept(5)).toBe(true);
    expect(sequence.accept(5)).toBe(false);
    expect(sequence.accept(7)).toBe(true);
    expect(sequence.hasGap).toBe(true);
    expect(sequence.after).toBe(5);
    // The catch-up call returns 6 and 7: only 6 is new.
    expect(sequence.accept(6)).toBe(true);
    expect(sequence.accept(7)).toBe(false);
    expect(sequence.hasGap).toBe(false);
    expect(sequence.after).toBe(7);
    expect(sequence.accept(3)).toBe(false);
  });

  it('starts from the server’s newest seq, and again when the server has fewer than it thought', () => {
    const fresh = new LiveSequence();
    expect(fresh.after).toBeNull();
    fresh.settle(12);
    expect(fresh.after).toBe(12);
    expect(fresh.accept(12)).toBe(false);
    expect(fresh.accept(13)).toBe(true);

    const stale = new LiveSequence(40);
    stale.settle(3);
    expect(stale.after).toBe(3);
    expect(stale.accept(4)).toBe(true);
  });
});
