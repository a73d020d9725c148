import { Migration } from '@mikro-orm/migrations';

/**
 * Request counters of the /api rate limit when no Redis is configured. UNLOGGED: rewritten on
 * every request and worthless after a crash, so they skip the write-ahead log. No entity maps
 * it (the ORM's schema diff skips it, see orm-config.ts); the rate-limit store uses plain SQL.
 */
export class Migration20261122020000ApiRateLimit extends Migration {
  override up(): void {
    this.addSql(
      `create unlogged table "api_rate_limit" ("key" varchar(100) not null, "hits" integer not null, "window_ends_at" timestamptz not null, primary key ("key"));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "api_rate_limit";`);
  }
}
