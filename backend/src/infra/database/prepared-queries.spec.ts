import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { createOrmConfig } from './orm-config.js';
import { numbered, PreparedQueries } from './prepared-queries.js';
import { ReplicaReads } from './replica-reads.js';

describe('prepared queries', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let prepared: PreparedQueries;

  beforeAll(async () => {
    db = await createTestDatabase({ queueSchema: false });
    orm = await MikroORM.init(createOrmConfig(db.url));
    const em = orm.em.fork();
    prepared = new PreparedQueries(em, new ReplicaReads(em));
  });
  afterAll(async () => {
    await prepared.onApplicationShutdown();
    await orm.close(true);
    await db.drop();
  });

  it("number the ORM's placeholders, an array as one value", () => {
    expect(numbered('select ? = any(array[?]::int[]) and ? > 1', ['a', [1, 2], 3])).toEqual({
      text: 'select $1 = any($2::int[]) and $3 > 1',
      values: ['a', [1, 2], 3],
    });
    expect(() => numbered('select ?, ?', [1])).toThrow('1 values for 2 placeholders');
    expect(() => numbered('select array[?]', [1])).toThrow('array[?] takes an array');
  });

  it('bind a null inside an array as null, through the ORM and prepared alike (the ORM wrote array[, ])', async () => {
    const sql = 'select array[?]::uuid[] as ids, array[?]::text[] as words';
    const params = [
      [null, '00000000-0000-0000-0000-000000000001'],
      ['a', null, "it's"],
    ];
    const expected = { ids: [null, '00000000-0000-0000-0000-000000000001'], words: ['a', null, "it's"] };
    expect(await orm.em.getConnection().execute(sql, params)).toEqual([expected]);
    expect(await prepared.all(sql, params)).toEqual([expected]);
  });

  it('answer as the ORM does, values read alike (times as PostgreSQL prints them, big numbers as text)', async () => {
    const sql = `select x, ?::timestamptz as at, ?::bigint * 1000 as big, ?::text as word from unnest(array[?]::integer[]) x order by x`;
    const params = ['2026-11-25 19:40:12.123456+00', 9_000_000_000_000, `it's`, [3, 1, 2]];
    const rows = await prepared.all(sql, params);
    expect(rows).toEqual(await orm.em.getConnection().execute(sql, params));
    expect(rows[0]).toEqual({ x: 1, at: '2026-11-25 19:40:12.123456+00', big: '9000000000000000', word: `it's` });
  });

  it('bind the values of a query planned for them, never writing them into its text', async () => {
    const sql = `select ?::float8 as huge, ?::text as word, (select count(*)::int from pg_class where relpages >= ?) >= 0 as counted`;
    // Written into the text, Infinity reads as a column ("column infinity does not exist").
    expect(await prepared.bound(sql, [Infinity, `it's`, 0])).toEqual([{ huge: Infinity, word: `it's`, counted: true }]);
    const [statement] = await prepared.bound<{ n: number }>(
      `select count(*)::int as n from pg_prepared_statements where statement like ?`,
      ['%::float8 as huge%'],
    );
    expect(statement).toEqual({ n: 0 });
  });

  it('plan a statement once, generically, and reuse it', async () => {
    for (let i = 0; i < 3; i++) await prepared.all('select count(*)::int as n from pg_class where relpages >= ?', [i]);
    // Sequential queries share the pool's one idle connection, where the statement was prepared.
    const [statement] = await prepared.all<{ generic_plans: string; custom_plans: string }>(
      `select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like ?`,
      ['%relpages >= $1%'],
    );
    expect(statement).toEqual({ generic_plans: 3, custom_plans: 0 });
  });
});
