import { describe, expect, it } from '@jest/globals';
import { categoryGroups, changeFilter, dueText, hasRatings, inboxQuery, NO_FILTERS } from './staff-api';

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

describe('the category and rating filters', () => {
  const values = (kind: string) => categoryGroups(kind).map((g) => [g.kind, g.options.map((o) => o.value)]);
  it("offers the chosen kind's categories: report reasons, feedback's six, none for contact, both groups for all", () => {
    expect(values('feedback')).toEqual([
      ['feedback', ['general-feedback', 'bug-report', 'feature-request', 'user-experience', 'performance-issue', 'other']],
    ]);
    expect(values('report')[0]?.[1]).toContain('animal-welfare');
    expect(values('contact')).toEqual([]);
    expect(values('').map(([kind]) => kind)).toEqual(['report', 'feedback']);
    expect([hasRatings(''), hasRatings('feedback'), hasRatings('report'), hasRatings('contact')]).toEqual([true, true, false, false]);
  });

  it('clears a category or rating the newly chosen kind does not have, and keeps one it has', () => {
    const bugs = { ...NO_FILTERS, category: 'bug-report', rating: '2' };
    expect(changeFilter(bugs, 'kind', 'feedback')).toMatchObject({ kind: 'feedback', category: 'bug-report', rating: '2' });
    expect(changeFilter(bugs, 'kind', 'report')).toMatchObject({ kind: 'report', category: '', rating: '' });
    expect(changeFilter({ ...NO_FILTERS, kind: 'report', category: 'scam' }, 'kind', '')).toMatchObject({ kind: '', category: 'scam' });
    expect(changeFilter(NO_FILTERS, 'rating', '5')).toMatchObject({ rating: '5' });
  });
});
