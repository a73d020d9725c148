import { describe, expect, it } from '@jest/globals';
import { dueText, inboxQuery, NO_FILTERS } from './staff-api';

describe('inboxQuery', () => {
  it('leaves empty filters out and adds the page cursor', () => {
    expect(inboxQuery(NO_FILTERS)).toEqual({ status: 'open' });
    expect(inboxQuery({ ...NO_FILTERS, kind: 'report', category: 'scam' }, '2026-11-22T07:00:00.000Z')).toEqual({
      kind: 'report',
      status: 'open',
      category: 'scam',
      before: '2026-11-22T07:00:00.000Z',
    });
  });
});

describe('dueText', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it('says how long is left, or by how much it is overdue', () => {
    expect(dueText('2026-11-22T15:00:00Z', now)).toBe('3 h left');
    expect(dueText('2026-11-22T12:10:00Z', now)).toBe('due within the hour');
    expect(dueText('2026-11-22T10:00:00Z', now)).toBe('overdue by 2 h');
  });
});
