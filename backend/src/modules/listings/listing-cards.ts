import { Inject, Injectable } from '@nestjs/common';
import { shownRating } from '../../contracts/reviews.js';
import { PreparedQueries } from '../../infra/database/prepared-queries.js';
import type { ReadFrom } from '../../infra/database/replica-reads.js';
import type { ListingCard } from './dto/listing.response.js';
import { ListingImages } from './listing-images.js';
import { pageRows, type RowsPage } from './listing-search/search-rows.js';
import { type ListingQuery, type ListingRow, ListingSearchSql, WALK } from './listing-search/search-sql.js';

/** Listings as cards show them: from a page's rows, or a page of a plain list (featured, a seller's, saved ones). */
@Injectable()
export class ListingCards {
  constructor(
    @Inject(ListingImages) private readonly images: ListingImages,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
  ) {}

  /** The SQL of a page of these listings, each row with its images (one query for a page of cards). */
  sql(query: ListingQuery): ListingSearchSql {
    return new ListingSearchSql(query, this.images.column('l.id'));
  }

  /**
   * A page of a list that needs no planning (no words, no place): the sort's index, walked. Lists
   * anyone may see a moment late (featured, another seller's) read the replica when there is one.
   */
  list(query: ListingQuery, from: ReadFrom): Promise<RowsPage> {
    return pageRows(this.prepared, this.sql(query), WALK, from);
  }

  /** Cards from a page's rows (their images came in the same query). */
  cards(rows: ListingRow[], near?: { latitude: number; longitude: number }): ListingCard[] {
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      description: row.excerpt,
      price: Number(row.price_pence) / 100,
      price_unit: row.price_unit,
      vat: row.vat,
      price_per_head: row.price_per_head_pence === null ? null : Number(row.price_per_head_pence) / 100,
      type: row.type,
      rent_subcategory: row.rent_subcategory,
      location: row.location_text,
      distance_miles: near && row.distance_m !== null ? Math.round((Number(row.distance_m) / 1609.344) * 10) / 10 : null,
      category_name: row.category_name,
      category_slug: row.category_slug,
      seller_id: row.seller_id,
      seller_name: row.seller_name,
      seller_verified: row.seller_verified,
      seller_type: row.seller_type,
      seller_rating: shownRating(row.seller_review_count, row.seller_review_stars),
      images: this.images.fromColumn(row.images ?? []),
      featured: row.featured,
      views: row.views,
      saves_count: row.saves_count,
      status: row.status,
      created_at: new Date(row.published_at).toISOString(),
      expires_at: new Date(row.expires_at).toISOString(),
    }));
  }
}

/**
 * A listing's price a head in pounds, as the cards' SQL works it out (listing_price_in_unit, 'per-head'):
 * its price when priced per head, a lot's total over its head count (to the penny); else null.
 */
export function pricePerHead(pricePence: number, priceUnit: string, attributes: Readonly<Record<string, unknown>>): number | null {
  if (priceUnit === 'per-head') return pricePence / 100;
  const heads = attributes['head_count'];
  return priceUnit === 'total' && typeof heads === 'number' && heads >= 1 ? Math.round(pricePence / heads) / 100 : null;
}
