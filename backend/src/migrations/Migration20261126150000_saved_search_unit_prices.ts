import { Migration } from '@mikro-orm/migrations';

/**
 * Saved searches whose prices are in a unit (per head, per acre) kept those bounds for pruning, where they were
 * compared with each new listing's stored price: a lot priced as a whole never reached "up to £120 a head". Such
 * bounds no longer prune (pruneFactsOf); this clears the ones already stored.
 */
export class Migration20261126150000_saved_search_unit_prices extends Migration {
  override name = 'Migration20261126150000_saved_search_unit_prices';

  override up(): void | Promise<void> {
    this.addSql(
      `update "saved_search" set "min_price_pence" = null, "max_price_pence" = null where "query" -> 'params' ->> 'price_unit' is not null;`,
    );
  }

  override down(): void | Promise<void> {
    // The bounds are re-derived when a search is saved again; nothing to restore.
  }
}
