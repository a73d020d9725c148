import { describe, expect, it } from '@jest/globals';
import { advanceOffset } from './testimonial-scroll';
import { TESTIMONIALS } from './testimonials';

describe('advanceOffset', () => {
  it('moves one pixel per frame', () => {
    expect(advanceOffset(0, 1000)).toBe(1);
    expect(advanceOffset(41, 1000)).toBe(42);
  });

  it('wraps at half the doubled track', () => {
    expect(advanceOffset(999, 1000)).toBe(0);
    expect(advanceOffset(999.5, 1000)).toBe(0.5);
  });

  it('stays put before the track is measured', () => {
    expect(advanceOffset(10, 0)).toBe(0);
  });
});

describe('TESTIMONIALS', () => {
  it('has eight five-star entries with unique ids', () => {
    expect(TESTIMONIALS).toHaveLength(8);
    expect(new Set(TESTIMONIALS.map((t) => t.id)).size).toBe(8);
    expect(TESTIMONIALS.every((t) => t.rating === 5)).toBe(true);
  });
});
