import { describe, expect, it } from '@jest/globals';
import {
  activeFilterCount,
  apiQuery,
  browseHref,
  normaliseFilters,
  rangeFields,
  resultCountText,
  sortChoices,
  valueFilters,
} from './browse-query';

const params = (text: string) => new URLSearchParams(text);

describe('livestock filters', () => {
  it('keeps a TB status and a pre-movement test date for livestock, and drops them for another category', () => {
    expect(normaliseFilters(params('category=livestock&tb_status=otf&pre_movement_test_valid_on=2027-01-10')).toString()).toBe(
      'category=livestock&tb_status=otf&pre_movement_test_valid_on=2027-01-10',
    );
    expect(normaliseFilters(params('category=equipment&tb_status=otf')).toString()).toBe('category=equipment');
    expect(valueFilters(params('category=livestock')).map((filter) => filter.name)).toEqual(
      expect.arrayContaining(['species', 'tb_status', 'pedigree', 'pre_movement_test_valid_on', 'bvd', 'organic']),
    );
  });
});

describe('normaliseFilters', () => {
  it('keeps known filters with values and drops the rest', () => {
    expect(normaliseFilters(params('q=tractor&colour=red&min_price=&verified=true&featured=no')).toString()).toBe(
      'q=tractor&verified=true',
    );
  });

  it('keeps the category range fields only for that category', () => {
    expect(normaliseFilters(params('category=equipment&year_min=2015&acres_min=3')).toString()).toBe('category=equipment&year_min=2015');
    expect(normaliseFilters(params('category=rentals&subcategory=land&acres_max=40')).toString()).toBe(
      'category=rentals&subcategory=land&acres_max=40',
    );
    expect(normaliseFilters(params('category=land&subcategory=land')).toString()).toBe('category=land');
  });

  it('drops sorts that do not apply and the radius without a place', () => {
    expect(normaliseFilters(params('sort=nearest&radius=10')).toString()).toBe('');
    expect(normaliseFilters(params('sort=relevance&q=hay')).toString()).toBe('q=hay&sort=relevance');
    expect(normaliseFilters(params('location=42&place=Taunton%2C+England&radius=10&sort=nearest')).get('sort')).toBe('nearest');
  });
});

describe('the rest', () => {
  it('offers nearest with a place and relevance with words', () => {
    expect(sortChoices(params(''))).toEqual(['newest', 'oldest', 'price-low', 'price-high', 'popular']);
    expect(sortChoices(params('q=x&location=1'))).toEqual([
      'relevance',
      'newest',
      'oldest',
      'price-low',
      'price-high',
      'popular',
      'nearest',
    ]);
    // Price per head is offered for livestock only (the API refuses it elsewhere); kept from a URL there only.
    expect(sortChoices(params('category=livestock'))).toContain('price-per-head');
    expect(sortChoices(params('category=equipment'))).not.toContain('price-per-head');
    expect(normaliseFilters(params('category=land&sort=price-per-head')).toString()).toBe('category=land');
  });

  it('counts narrowing filters once each', () => {
    expect(
      activeFilterCount(params('q=x&min_price=1&max_price=5&category=equipment&year_min=1&year_max=2&verified=true&sort=oldest')),
    ).toBe(4);
  });

  it('sends the API the filters without the place label', () => {
    expect(apiQuery(params('location=1&place=Bath'), { limit: '20' }).toString()).toBe('location=1&limit=20');
  });

  it('builds links and counts', () => {
    expect(browseHref(params('q=hay&cursor=abc'))).toBe('/browse?q=hay');
    expect(browseHref(params(''))).toBe('/browse');
    expect(resultCountText(1000, true)).toBe('1,000+ listings');
    expect(resultCountText(1, false)).toBe('1 listing');
  });

  it('offers the range fields of the chosen category, and none without one', () => {
    expect(rangeFields(params('category=land&acres_min=5')).map((field) => field.key)).toContain('acres');
    expect(rangeFields(params(''))).toEqual([]);
  });
});
