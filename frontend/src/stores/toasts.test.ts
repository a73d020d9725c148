import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { $toasts, dismissToast, MAX_VISIBLE_TOASTS, pushToast, showToast, TOAST_DURATION_MS, type Toast } from './toasts';

const toast = (id: number): Toast => ({ id, title: `Toast ${id}`, variant: 'default' });

describe('pushToast', () => {
  it('puts the newest toast first', () => {
    expect(pushToast([toast(1)], toast(2)).map((t) => t.id)).toEqual([2, 1]);
  });

  it('keeps at most three toasts, dropping the oldest', () => {
    const list = [toast(3), toast(2), toast(1)];
    expect(pushToast(list, toast(4)).map((t) => t.id)).toEqual([4, 3, 2]);
    expect(MAX_VISIBLE_TOASTS).toBe(3);
  });
});

describe('showToast', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    $toasts.set([]);
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('adds a toast with the default variant and removes it after 5 seconds', () => {
    showToast({ title: 'Saved' });
    expect($toasts.get()).toEqual([expect.objectContaining({ title: 'Saved', variant: 'default' })]);
    jest.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect($toasts.get()).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });

  it('dismisses a toast on request', () => {
    const id = showToast({ title: 'Failed', description: 'Try again', variant: 'destructive' });
    dismissToast(id);
    expect($toasts.get()).toEqual([]);
  });
});
