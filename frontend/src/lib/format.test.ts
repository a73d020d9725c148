import { describe, expect, it } from '@jest/globals';
import { countOf, formatDate, formatPrice, formatRelativeTime } from './format';

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

describe('formatDate', () => {
  it('writes dates as the pages always have, in each form they use, the same form twice over', () => {
    const summer = new Date('2026-06-30T23:30:00Z');
    expect(formatDate(summer, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })).toBe('30 June 2026');
    // British Summer Time: half past midnight on 1 July in London.
    expect(formatDate(summer, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' })).toBe('1 Jul 2026');
    expect(formatDate(summer, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })).toBe('30 Jun 2026');
    expect(
      formatDate(new Date('2026-12-03T10:00:00Z'), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' }),
    ).toBe('3 Dec 2026');
  });

  it('says Invalid Date for a date that is none, as toLocaleDateString did, rather than failing the page', () => {
    expect(formatDate(new Date('not a date'), { day: 'numeric', month: 'long', year: 'numeric' })).toBe('Invalid Date');
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
