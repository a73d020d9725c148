import { describe, expect, it } from '@jest/globals';
import { addNotification, isNew, testNotification } from './notification-list';

const at = (minute: number, id = `n${minute}`) => ({ ...testNotification(new Date(Date.UTC(2026, 10, 22, 9, minute))), id });

describe('the bell’s list', () => {
  it('keeps the newest 10, newest first, each once', () => {
    let list = Array.from({ length: 10 }, (_, i) => at(i)).reverse();
    list = addNotification(list, at(30));
    expect(list).toHaveLength(10);
    expect(list[0]?.id).toBe('n30');
    expect(list.at(-1)?.id).toBe('n1');
    expect(addNotification(list, at(30))).toEqual(list);
    expect(isNew(list, at(30))).toBe(false);
  });
});
