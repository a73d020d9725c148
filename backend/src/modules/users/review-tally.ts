import type { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';

/**
 * A member's shown reviews, counted on their account row (review_count, review_stars_total) so
 * every card and listing page reads the rating with the seller it already joins, never a query per
 * card. The reviews module changes it in the same transaction as the review it counts.
 */
@Injectable()
export class ReviewTally {
  /** Adds `reviews` (1, or -1 when one is hidden) and `stars` to the member's totals, in `tx`. */
  async add(tx: EntityManager, userId: string, reviews: number, stars: number): Promise<void> {
    await tx.execute('update app_user set review_count = review_count + ?, review_stars_total = review_stars_total + ? where id = ?', [
      reviews,
      stars,
      userId,
    ]);
  }
}
