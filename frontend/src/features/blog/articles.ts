/** Pure logic of the blog pages: reading time from an article's text, ordering and the category chips. */

/** Adult silent reading of non-fiction runs at about 200 to 250 words a minute; the lower figure suits advice read closely. */
export const WORDS_PER_MINUTE = 200;

/** The words a reader reads in a Markdown text: no link targets, image addresses, markup or HTML tags. */
export function wordCount(markdown: string): number {
  const text = markdown
    .replace(/^---\n[\s\S]*?\n---\n/, ' ') // frontmatter, if the raw file is given
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ') // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
    .replace(/<[^>]+>/g, ' ')
    .replace(/[#>*_`|~-]+/g, ' ');
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Whole minutes, rounded up, never less than one. */
export function readingMinutes(markdown: string, wordsPerMinute = WORDS_PER_MINUTE): number {
  return Math.max(1, Math.ceil(wordCount(markdown) / wordsPerMinute));
}

export function readingTimeLabel(minutes: number): string {
  return `${minutes} min read`;
}

export interface ArticleSummary {
  slug: string;
  title: string;
  category: string;
  date: Date;
}

/** Newest first; articles of the same day by title, so the order never depends on the file system. */
export function newestFirst<T extends ArticleSummary>(articles: readonly T[]): T[] {
  return [...articles].sort((a, b) => b.date.getTime() - a.date.getTime() || a.title.localeCompare(b.title, 'en-GB'));
}

export interface CategoryChip {
  /** '' for All. */
  value: string;
  label: string;
  count: number;
}

/** The chip value of a category: lower case, words joined by hyphens ("Land & Lettings" → "land-lettings"). */
export function categoryValue(category: string): string {
  return category
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** All (every article), then each category with its number of articles, most articles first, ties by name. */
export function categoryChips(articles: ReadonlyArray<Pick<ArticleSummary, 'category'>>): CategoryChip[] {
  const counts = new Map<string, number>();
  for (const { category } of articles) counts.set(category, (counts.get(category) ?? 0) + 1);
  const categories = [...counts]
    .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b, 'en-GB'))
    .map(([label, count]) => ({ value: categoryValue(label), label, count }));
  return [{ value: '', label: 'All', count: articles.length }, ...categories];
}

/** "22 November 2026", as British readers write it. */
export function articleDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}
