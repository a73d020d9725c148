import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { articleDate, categoryChips, categoryValue, newestFirst, readingMinutes, readingTimeLabel, wordCount } from './articles';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('reading time', () => {
  it('counts the words a reader reads, not link targets, images or markup', () => {
    expect(wordCount('## Before you travel\n\nAsk the **seller** for the [serial number](/blog/x-y-z).')).toBe(10);
    expect(wordCount('![a tractor in a field](/img/tractor.webp) Look - then <em>buy</em>.')).toBe(3);
    expect(wordCount('---\ntitle: Ignored frontmatter words\n---\nTwo words')).toBe(2);
  });

  it('rounds up to whole minutes at 200 words a minute, never below one', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes(words(200))).toBe(1);
    expect(readingMinutes(words(201))).toBe(2);
    expect(readingMinutes(words(790))).toBe(4);
    expect(readingTimeLabel(4)).toBe('4 min read');
  });
});

describe('category chips', () => {
  it('start with All and count each category, most articles first, ties by name', () => {
    const chips = categoryChips([
      { category: 'Safety' },
      { category: 'Machinery' },
      { category: 'Safety' },
      { category: 'Land & Lettings' },
      { category: 'Land & Lettings' },
      { category: 'Crops & Forage' },
    ]);
    expect(chips).toEqual([
      { value: '', label: 'All', count: 6 },
      { value: 'land-lettings', label: 'Land & Lettings', count: 2 },
      { value: 'safety', label: 'Safety', count: 2 },
      { value: 'crops-forage', label: 'Crops & Forage', count: 1 },
      { value: 'machinery', label: 'Machinery', count: 1 },
    ]);
    expect(categoryChips([])).toEqual([{ value: '', label: 'All', count: 0 }]);
  });

  it('make a category into a value fit for an attribute', () => {
    expect(categoryValue(' Crops & Forage ')).toBe('crops-forage');
  });
});

describe('ordering and dates', () => {
  it('puts the newest first, same-day articles by title', () => {
    const a = { slug: 'a', title: 'B title', category: 'x', date: new Date('2026-05-01') };
    const b = { slug: 'b', title: 'A title', category: 'x', date: new Date('2026-05-01') };
    const c = { slug: 'c', title: 'Z title', category: 'x', date: new Date('2026-11-01') };
    expect(newestFirst([a, b, c]).map((article) => article.slug)).toEqual(['c', 'b', 'a']);
  });

  it('writes dates the British way', () => {
    expect(articleDate(new Date('2026-11-10'))).toBe('10 November 2026');
  });
});

describe('the articles', () => {
  const dir = join(import.meta.dirname, '../../content/blog');
  const files = readdirSync(dir).filter((file) => file.endsWith('.md'));

  it('are eight, each of several hundred words, with every field the list shows', () => {
    expect(files).toHaveLength(8);
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(wordCount(text)).toBeGreaterThan(500);
      for (const field of ['title', 'excerpt', 'author', 'authorRole', 'date', 'category', 'keywords']) {
        expect(text).toMatch(new RegExp(`^${field}: .+`, 'm'));
      }
    }
  });

  it('link only to their own site with root-relative links, and to articles that exist', () => {
    const slugs = new Set(files.map((file) => file.replace(/\.md$/, '')));
    for (const file of files) {
      for (const [, target] of readFileSync(join(dir, file), 'utf8').matchAll(/\]\(([^)]+)\)/g)) {
        expect(target).toMatch(/^\//);
        const article = /^\/blog\/([^/#?]+)/.exec(target ?? '');
        if (article) expect(slugs).toContain(article[1]);
      }
    }
  });
});
