import { describe, expect, it } from '@jest/globals';
import { badgeText, messagePreview } from '../../../../backend/src/contracts/notifications';
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

  it('says 9+ above nine, and cuts a preview to 50 characters and an ellipsis', () => {
    expect(badgeText(9)).toBe('9');
    expect(badgeText(10)).toBe('9+');
    expect(messagePreview('a'.repeat(50))).toBe('a'.repeat(50));
    expect(messagePreview('a'.repeat(51))).toBe(`${'a'.repeat(50)}...`);
  });
});
