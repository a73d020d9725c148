import { describe, expect, it } from '@jest/globals';
import { reportFrom } from './report-dialog';

describe('reportFrom', () => {
  const id = '7b0c1a56-1d3e-4f5a-9a55-0f7a3c6c2b11';

  it('asks for a reason from the list', () => {
    expect(reportFrom('listing', id, '', '')).toEqual({ ok: false, error: 'Please choose a reason' });
    expect(reportFrom('listing', id, 'boring', '')).toEqual({ ok: false, error: 'Please choose a reason' });
  });

  it('sends trimmed details, and none when blank', () => {
    expect(reportFrom('listing', id, 'scam', '  Asked for payment upfront ')).toEqual({
      ok: true,
      report: { target_kind: 'listing', target_id: id, reason: 'scam', details: 'Asked for payment upfront' },
    });
    expect(reportFrom('user', id, 'spam', '   ')).toEqual({ ok: true, report: { target_kind: 'user', target_id: id, reason: 'spam' } });
  });

  it('refuses details over 1000 characters', () => {
    expect(reportFrom('listing', id, 'other', 'x'.repeat(1001))).toEqual({ ok: false, error: 'Details must be at most 1000 characters' });
  });
});
