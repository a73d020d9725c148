import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlDriver, PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * MikroORM's PostgreSQL platform, with nulls inside a bound array written as `null`. The ORM puts
 * each bound value into the SQL text itself (formatQuery): a list is written element by element
 * (so `array[?]::uuid[]` binds one), and it wrote a null element as nothing, `array['a', ]`: a
 * syntax error, in every process (test and production alike).
 */
export class FieldmarketPostgreSqlPlatform extends PostgreSqlPlatform {
  override escape(value: unknown): string {
    if (Array.isArray(value))
      return value.map((item: unknown) => (item === null || item === undefined ? 'null' : this.escape(item))).join(', ');
    return super.escape(value) as string;
  }
}

/** PostgreSQL through FieldmarketPostgreSqlPlatform: the driver every ORM of the product is configured with (createOrmConfig). */
export class FieldmarketPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // (Read-only to callers; the configuration reads it once the driver is made.)
    Object.assign(this, { platform: new FieldmarketPostgreSqlPlatform() });
  }
}
