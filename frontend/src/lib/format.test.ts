import { describe, expect, it } from '@jest/globals';
import { countOf, formatPrice, formatRelativeTime } from './format';

describe('formatPrice', () => {
  it('formats whole pounds in en-GB', () => {
    expect(formatPrice(85000)).toBe('£85,000');
    expect(formatPrice(0)).toBe('£0');
  });

  it('rounds pence away', () => {
    expect(formatPrice(1249.5)).toBe('£1,250');
    expect(formatPrice(99.4)).toBe('£99');
  });
});

describe('countOf', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(countOf(1, 'view')).toBe('1 view');
    expect(countOf(0, 'view')).toBe('0 views');
    expect(countOf(2, 'save')).toBe('2 saves');
    expect(countOf(1204, 'view')).toBe('1,204 views');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2025-06-15T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('says just now under a minute', () => {
    expect(formatRelativeTime(ago(30), now)).toBe('just now');
  });

  it('uses the largest whole unit', () => {
    expect(formatRelativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(2 * 3600), now)).toBe('2 hours ago');
    expect(formatRelativeTime(ago(24 * 3600), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86400), now)).toBe('3 days ago');
    expect(formatRelativeTime(ago(400 * 86400), now)).toBe('last year');
  });

  it('accepts ISO strings and gives empty text for invalid dates', () => {
    expect(formatRelativeTime('2025-06-15T11:00:00Z', now)).toBe('1 hour ago');
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});
