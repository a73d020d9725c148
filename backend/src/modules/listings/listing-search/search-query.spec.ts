import { describe, expect, it } from '@jest/globals';
import {
  parseSearchQuery,
  SEARCH_QUERY_VERSION,
  searchQueryFromJson,
  searchQueryParams,
  searchQueryToJson,
  type SearchQuery,
} from './search-query.js';

/** The query of a browse URL's parameters; fails the test with the problems when they are refused. */
function queryOf(params: string): SearchQuery {
  const parsed = parseSearchQuery(new URLSearchParams(params));
  if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
}

const errorsOf = (params: string) => {
  const parsed = parseSearchQuery(new URLSearchParams(params));
  return 'errors' in parsed ? parsed.errors : undefined;
};

const EVERY_FILTER =
  'q=massey+tractor&category=equipment&type=buy&min_price=5000.5&max_price=40000&location=2636177&radius=40' +
  '&verified=true&featured=false&date=week&hours_max=3000&year_min=2015&sort=price-low';

describe('a search query', () => {
  it('reads every filter of a browse URL, as the search means it', () => {
    expect(queryOf(EVERY_FILTER)).toEqual({
      text: 'massey tractor',
      category: 'equipment',
      type: 'sale',
      minPricePence: 500_050,
      maxPricePence: 4_000_000,
      location: '2636177',
      radiusMiles: 40,
      verifiedSellersOnly: true,
      featuredOnly: false,
      postedWithin: 'week',
      attributeRanges: [
        { key: 'year', min: 2015 },
        { key: 'hours', max: 3000 },
      ],
      sort: 'price-low',
    });
  });

  it('fills in what a URL leaves out: relevance for words, newest without, 25 miles around a place, the first page of 20', () => {
    expect(parseSearchQuery(new URLSearchParams('q=hay'))).toEqual({
      query: { text: 'hay', attributeRanges: [], sort: 'relevance' },
      position: { limit: 20 },
    });
    expect(queryOf('location=2636177')).toEqual({ location: '2636177', radiusMiles: 25, attributeRanges: [], sort: 'newest' });
    expect(queryOf('radius=40&date=all&q=%20%20')).toEqual({ attributeRanges: [], sort: 'newest' });
  });

  it('goes to URL parameters and back unchanged, the page position with it', () => {
    for (const params of [EVERY_FILTER, '', 'q=%22round+baler%22+or+-wrapper', 'type=rent&category=rentals&subcategory=equipment']) {
      const parsed = parseSearchQuery(new URLSearchParams(`${params}&cursor=abc&limit=7`));
      if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
      const again = parseSearchQuery(searchQueryParams(parsed.query, parsed.position));
      expect(again).toEqual(parsed);
    }
  });

  it('keeps count=false in the position, so an uncounted answer is never reused for a counted one', () => {
    const parsed = parseSearchQuery(new URLSearchParams('category=livestock&count=false'));
    if ('errors' in parsed) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.position).toEqual({ limit: 20, counted: false });
    expect(searchQueryParams(parsed.query, parsed.position).get('count')).toBe('false');
    expect(parseSearchQuery(searchQueryParams(parsed.query, parsed.position))).toEqual(parsed);
    const counted = parseSearchQuery(new URLSearchParams('category=livestock&count=true'));
    expect(counted).toEqual({ query: parsed.query, position: { limit: 20 } });
  });

  it('is stored as JSON with its version, and read back unchanged', () => {
    const query = queryOf(EVERY_FILTER);
    const stored = JSON.parse(JSON.stringify(searchQueryToJson(query)));
    expect(stored.version).toBe(SEARCH_QUERY_VERSION);
    expect(searchQueryFromJson(stored)).toEqual({ query });
  });

  it('gives two URLs that ask the same thing one form, unknown parameters left out', () => {
    const a = searchQueryParams(queryOf('sort=newest&min_price=10&_t=123&category=equipment'));
    const b = searchQueryParams(queryOf('category=equipment&min_price=10.00'));
    expect(a.toString()).toBe(b.toString());
    expect(a.has('_t')).toBe(false);
  });

  it('reads control characters and line breaks in the words as spaces, so no saved name or alert subject holds one', () => {
    expect(queryOf('q=%07massey%0D%0Atractor%09').text).toBe('massey tractor');
    expect(searchQueryParams(queryOf('q=%1B%5B31m')).get('q')).toBe('[31m');
    expect(queryOf('q=%00%07').text).toBeUndefined();
  });

  it('refuses bad values with the message of the filter at fault', () => {
    expect(errorsOf('sort=cheapest')).toEqual({
      sort: 'sort must be one of: newest, oldest, price-low, price-high, popular, nearest, relevance, price-per-head',
    });
    expect(errorsOf('min_price=abc')).toEqual({ min_price: 'min_price must be a number' });
    expect(errorsOf('min_price=1e308')).toEqual({ min_price: 'min_price must be a number from 0 to 100,000,000' });
    expect(errorsOf('min_price=50&max_price=40')).toEqual({ max_price: 'max_price must not be below min_price' });
    expect(errorsOf('location=2636177&radius=0')).toEqual({ radius: 'radius must be at least 1 mile' });
    expect(errorsOf('category=equipment&hours_max=200001&year_min=lots')).toEqual({
      hours_max: 'hours_max must be from 0 to 200000',
      year_min: 'year_min must be a number',
    });
    expect(errorsOf('q=a&q=b')).toEqual({ q: 'q must be given once' });
    expect(errorsOf('limit=51')).toEqual({ limit: 'limit must be at most 50' });
  });

  it('refuses a stored query of another version, or with values that are not text, rather than guess', () => {
    const { params } = searchQueryToJson(queryOf('q=hay'));
    expect(searchQueryFromJson({ version: SEARCH_QUERY_VERSION + 1, params })).toEqual({ errors: { version: 'version must be 1' } });
    expect(searchQueryFromJson({ params })).toEqual({ errors: { version: 'version must be 1' } });
    expect(searchQueryFromJson(null)).toEqual({ errors: { version: 'version must be 1' } });
    expect(searchQueryFromJson({ version: 1, params: { q: 'hay', min_price: 5 } })).toEqual({
      errors: { params: 'params must all be text' },
    });
    expect(searchQueryFromJson({ version: 1, params: { sort: 'cheapest' } })).toEqual({
      errors: { sort: 'sort must be one of: newest, oldest, price-low, price-high, popular, nearest, relevance, price-per-head' },
    });
  });
});
