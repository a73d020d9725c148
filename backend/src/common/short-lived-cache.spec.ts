import { describe, expect, it } from '@jest/globals';
import { ShortLivedCache } from './short-lived-cache.js';

describe('ShortLivedCache', () => {
  const counter = () => {
    let loads = 0;
    return { load: async () => ++loads, loads: () => loads };
  };

  it('answers a repeated key from memory until its time is up', async () => {
    let now = 0;
    const cache = new ShortLivedCache<number>(1_000, 10, () => now);
    const { load, loads } = counter();
    expect(await cache.get('q=tractor', load)).toBe(1);
    now = 999;
    expect(await cache.get('q=tractor', load)).toBe(1);
    now = 1_000;
    expect(await cache.get('q=tractor', load)).toBe(2);
    expect(loads()).toBe(2);
  });

  it('runs one load for concurrent misses of a key', async () => {
    const cache = new ShortLivedCache<number>(1_000, 10);
    const { load, loads } = counter();
    const answers = await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(answers).toEqual([1, 1, 1]);
    expect(loads()).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const cache = new ShortLivedCache<number>(1_000, 10);
    await expect(cache.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('forgets everything on clear, including a load that was under way', async () => {
    const cache = new ShortLivedCache<number>(1_000, 10);
    let finish: (value: number) => void = () => undefined;
    const slow = cache.get('k', () => new Promise<number>((resolve) => (finish = resolve)));
    cache.clear();
    finish(1);
    expect(await slow).toBe(1);
    expect(await cache.get('k', async () => 2)).toBe(2);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const cache = new ShortLivedCache<string>(1_000, 2);
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });
});
