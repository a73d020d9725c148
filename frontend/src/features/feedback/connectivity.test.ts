import { describe, expect, it } from '@jest/globals';
import { connectivityBanner, serverStateOf } from './connectivity';

describe('connectivityBanner', () => {
  it('says it is checking until the first answer', () => {
    expect(connectivityBanner('checking', true, false)?.text).toBe('Checking server connection...');
  });

  it('puts the browser being offline first', () => {
    expect(connectivityBanner('online', false, false)).toEqual({
      text: 'You appear to be offline. Please check your internet connection.',
      tone: 'danger',
    });
  });

  it('says when the server cannot be reached', () => {
    expect(connectivityBanner('offline', true, false)?.text).toBe('Unable to connect to the server. Some features may be unavailable.');
  });

  it('is hidden when both are online, but for a moment after a problem clears', () => {
    expect(connectivityBanner('online', true, false)).toBeNull();
    expect(connectivityBanner('online', true, true)).toEqual({ text: 'All systems operational', tone: 'success' });
  });
});

describe('serverStateOf', () => {
  it('is online only for a successful health answer', () => {
    expect(serverStateOf(200, { success: true, data: { status: 'ok' } })).toBe('online');
    expect(serverStateOf(503, { success: false, error: 'Database unavailable' })).toBe('offline');
    expect(serverStateOf(200, 'not json')).toBe('offline');
  });
});
