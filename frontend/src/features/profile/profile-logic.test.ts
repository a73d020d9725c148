import { describe, expect, it } from '@jest/globals';
import { describeUserAgent, exportFileName, memberSinceYear, profileUpdate, validateProfile } from './profile-logic';

describe('validateProfile', () => {
  it('needs a name; the rest is optional with the contract limits', () => {
    expect(validateProfile({ full_name: ' ', phone: '', location: '', bio: '' })).toEqual({ full_name: 'Full name is required' });
    expect(validateProfile({ full_name: 'Jane', phone: '1'.repeat(31), location: '', bio: 'x'.repeat(501) })).toEqual({
      phone: 'Phone must be at most 30 characters',
      bio: 'Bio must be at most 500 characters',
    });
    expect(validateProfile({ full_name: 'Jane', phone: '', location: 'Taunton\nSomerset', bio: 'Line one\nLine two' })).toEqual({
      location: 'Location must be on one line',
    });
  });

  it('sends trimmed values', () => {
    expect(profileUpdate({ full_name: ' Jane ', phone: ' 01823 ', location: '', bio: ' Hay \n' })).toEqual({
      full_name: 'Jane',
      phone: '01823',
      location: '',
      bio: 'Hay',
    });
  });
});

describe('display helpers', () => {
  it('shows the year a member joined, or N/A', () => {
    expect(memberSinceYear('2026-03-01T10:00:00.000Z')).toBe('2026');
    expect(memberSinceYear(null)).toBe('N/A');
    expect(memberSinceYear('not a date')).toBe('N/A');
  });

  it('names browsers and systems', () => {
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36')).toBe(
      'Chrome on Android',
    );
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(describeUserAgent('curl/8.0')).toBe('A browser on an unknown system');
  });

  it('names the export file with the date', () => {
    expect(exportFileName(new Date('2026-11-22T09:00:00Z'))).toBe('fieldmarket-data-2026-11-22.json');
  });
});
