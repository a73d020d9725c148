import { describe, expect, it } from '@jest/globals';
import { REVIEW_TEXTS } from '@contracts/reviews';
import { replyError, reviewErrors, reviewsSummary, starsLabel, starsText } from './reviews-logic';

describe('reviews in the page', () => {
  it('draw whole stars out of five, and say them', () => {
    expect(starsText(4)).toBe('★★★★☆');
    expect(starsText(4.3)).toBe('★★★★☆');
    expect(starsText(4.6)).toBe('★★★★★');
    expect(starsLabel(1)).toBe('1 out of 5 star');
    expect(starsLabel(4)).toBe('4 out of 5 stars');
  });

  it('sum a member up: nothing yet, a count under 3, the average from 3', () => {
    expect(reviewsSummary(0, null)).toBe('No reviews yet.');
    expect(reviewsSummary(2, null)).toBe('2 reviews; the average shows from 3 reviews.');
    expect(reviewsSummary(11, 4.3)).toBe('4.3 out of 5 from 11 reviews');
  });

  it('check the form as the API does', () => {
    expect(reviewErrors(0, 'Great!')).toEqual({ stars: REVIEW_TEXTS.starsRequired, text: 'Review must be at least 20 characters' });
    expect(reviewErrors(5, 'Paid on collection; the ewes were exactly as described.')).toEqual({});
    expect(reviewErrors(3, 'Paid on collection\u0007 as agreed, no trouble at all.')).toEqual({
      text: 'Review must not contain control characters',
    });
    expect(reviewErrors(4, 'Paid on collection, \u202egnp.exe as agreed, no trouble.')).toEqual({
      text: 'Review must not contain characters that change the direction of text',
    });
    expect(reviewErrors(5, 'שלום, the ewes were exactly as described.')).toEqual({});
    expect(replyError('Thank you \u2066')).toBe('Reply must not contain characters that change the direction of text');
    expect(replyError(' ')).toBe('Reply is required');
    expect(replyError('Thank you')).toBeUndefined();
  });
});
