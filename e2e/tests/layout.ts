import type { Locator } from '@playwright/test';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether two on-screen boxes share any area. */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The element's on-screen box; fails when it is not rendered. */
export async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} is not rendered`);
  return box;
}

/**
 * Whether the element is on screen and on top: at its corners and centre, the topmost element
 * is the element itself or inside it, so nothing (a banner, a toast) covers it there.
 */
export function isUncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const points: Array<[number, number]> = [
      [box.left + 1, box.top + 1],
      [box.right - 1, box.top + 1],
      [box.left + box.width / 2, box.top + box.height / 2],
      [box.left + 1, box.bottom - 1],
      [box.right - 1, box.bottom - 1],
    ];
    return points.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && element.contains(hit);
    });
  });
}
