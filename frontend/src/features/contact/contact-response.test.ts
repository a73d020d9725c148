import { describe, expect, it } from '@jest/globals';
import { interpretContactResponse } from './contact-response';

describe('interpretContactResponse', () => {
  it('reports a stored message as sent', () => {
    expect(
      interpretContactResponse(201, {
        success: true,
        data: { id: '0b7c7a5e-3a1e-4d7a-9a59-1f0d2f0f6c11', receivedAt: '2025-06-01T10:00:00.000Z' },
      }),
    ).toEqual({ kind: 'sent' });
  });

  it('passes the server field messages through on 400', () => {
    expect(
      interpretContactResponse(400, {
        success: false,
        error: 'Name is required, Message must be at least 10 characters',
        fields: { name: 'Name is required', message: 'Message must be at least 10 characters', other: 'ignored' },
      }),
    ).toEqual({
      kind: 'invalid',
      fields: { name: 'Name is required', message: 'Message must be at least 10 characters' },
    });
  });

  it('treats a 400 without field messages as a failure', () => {
    expect(interpretContactResponse(400, { success: false, error: 'Bad Request' })).toEqual({ kind: 'failed' });
  });

  it('carries the rate-limit text on 429', () => {
    const error = 'Too many messages from your connection. Please wait a few minutes and try again.';
    expect(interpretContactResponse(429, { success: false, error })).toEqual({ kind: 'rate-limited', message: error });
    expect(interpretContactResponse(429, 'Too Many Requests')).toEqual({ kind: 'rate-limited', message: error });
  });

  it('treats anything else as a failure', () => {
    expect(interpretContactResponse(500, { success: false, error: 'Internal error' })).toEqual({ kind: 'failed' });
    expect(interpretContactResponse(502, '<html>Bad gateway</html>')).toEqual({ kind: 'failed' });
    expect(interpretContactResponse(200, { success: false, error: 'nope' })).toEqual({ kind: 'failed' });
  });
});
