import { Migration } from '@mikro-orm/migrations';

/**
 * One waiting success story per author and one waiting business check per seller, held by the
 * database: two quick submits made two (review finding, issue 23). Older duplicates keep the first.
 */
export class Migration20261126132020_one_pending_story_and_check extends Migration {
  override name = 'Migration20261126132020_one_pending_story_and_check';

  override up(): void | Promise<void> {
    for (const [table, person] of [
      ['success_story', 'author_id'],
      ['business_verification', 'seller_id'],
    ]) {
      this.addSql(
        `delete from "${table}" t where t."status" = 'pending' and exists (select 1 from "${table}" o where o."${person}" = t."${person}" and o."status" = 'pending' and (o."created_at", o."id") < (t."created_at", t."id"));`,
      );
    }
    this.addSql(`create unique index "success_story_one_pending_per_author" on "success_story" ("author_id") where "status" = 'pending';`);
    this.addSql(
      `create unique index "business_verification_one_pending_per_seller" on "business_verification" ("seller_id") where "status" = 'pending';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "success_story_one_pending_per_author";`);
    this.addSql(`drop index "business_verification_one_pending_per_seller";`);
  }
}
