import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import { BadRequestException } from '@nestjs/common';
import { appEntities } from '../app.module.js';
import { createOrmConfig } from '../infra/database/orm-config.js';
import { ContactMessage } from '../modules/contact/contact-message.entity.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import {
  decodeCursor,
  decodeTypedCursor,
  encodeCursor,
  findKeysetPage,
  INVALID_CURSOR_MESSAGE,
  type SortKey,
} from './keyset-pagination.js';

// Any entity with a timestamp and an id shows the behaviour; contact messages are at hand.
const NEWEST_FIRST: Array<SortKey<ContactMessage>> = [
  { field: 'createdAt', direction: 'desc', type: 'timestamptz' },
  { field: 'id', direction: 'desc', type: 'uuid' },
];

describe('keyset pagination', () => {
  let db: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    db = await createTestDatabase({ queueSchema: false });
    orm = await MikroORM.init(createOrmConfig(db.url, appEntities()));
  });
  afterAll(async () => {
    await orm.close(true);
    await db.drop();
  });

  const add = async (count: number, at: (i: number) => Date, tag: string, subject = tag) => {
    const em = orm.em.fork();
    for (let i = 0; i < count; i++) {
      em.persist(
        em.create(ContactMessage, {
          name: `${tag}-${i}`,
          email: 'p@example.co.uk',
          subject,
          message: 'paging through',
          clientIp: '10.0.0.1',
          createdAt: at(i),
          acknowledgementDue: false,
        }),
      );
    }
    await em.flush();
  };

  it('walks every row once, newest first, while rows are added between pages', async () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    // Many rows share a timestamp, so pages split inside a tie and the id has to break it.
    await add(40, (i) => new Date(base + Math.floor(i / 8) * 1000), 'old');
    const expected = (
      await db.query<{ name: string }>(`select name from contact_message where subject = 'old' order by created_at desc, id desc`)
    ).map((r) => r.name);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await findKeysetPage(orm.em.fork(), ContactMessage, { subject: 'old' }, { sort: NEWEST_FIRST, limit: 7, cursor });
      seen.push(...page.items.map((m) => m.name));
      cursor = page.nextCursor ?? undefined;
      pages++;
      // New rows arrive while the user reads (as with OFFSET, they would shift every later page).
      await add(3, () => new Date(), `new${pages}`, 'old');
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(pages).toBe(6);
  });

  it('says the last page has no next cursor', async () => {
    await add(3, (i) => new Date(Date.parse('2025-05-05T00:00:00Z') + i), 'few');
    const page = await findKeysetPage(orm.em.fork(), ContactMessage, { subject: 'few' }, { sort: NEWEST_FIRST, limit: 3 });
    expect(page.items.map((m) => m.name)).toEqual(['few-2', 'few-1', 'few-0']);
    expect(page.nextCursor).toBeNull();
  });

  it('round-trips cursor values, dates included', () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    expect(decodeCursor(encodeCursor([at, 'abc', 42]), 3)).toEqual([at.toISOString(), 'abc', 42]);
  });

  it.each([
    ['not base64', '%%%'],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['the wrong number of values', encodeCursor(['2026-01-01T00:00:00.000Z'])],
    ['an object where a value belongs', encodeCursor([{ $gt: 1 }, 'x'])],
    ['far too long', 'a'.repeat(2_000)],
  ])('refuses a cursor that is %s with a 400 a user understands', (_label, cursor) => {
    expect(() => decodeCursor(cursor, 2)).toThrow(BadRequestException);
    expect(() => decodeCursor(cursor, 2)).toThrow(INVALID_CURSOR_MESSAGE);
  });

  const ID = '0b7c4f9e-3d2a-4c1b-9f8e-7a6b5c4d3e2f';

  it.each([
    ['a time that is a word PostgreSQL knows', ['yesterday', ID]],
    ['a day that does not exist', ['2026-02-30 10:00:00+00', ID]],
    ['a time zone beyond any', ['2026-02-03 10:00:00+99', ID]],
    ['a year before any row', ['0000-01-01 00:00:00+00', ID]],
    ['an id that is not one', ['2026-02-03 10:00:00+00', 'x']],
    ['a number where a time belongs', [1_700_000_000, ID]],
  ])('refuses a cursor whose values are of the wrong kind (%s) with the same 400, before any query', (_label, values) => {
    expect(() => decodeTypedCursor(encodeCursor(values), ['timestamptz', 'uuid'])).toThrow(INVALID_CURSOR_MESSAGE);
  });

  it('refuses a whole number past what PostgreSQL holds in an integer, and takes the last one it holds', () => {
    expect(() => decodeTypedCursor(encodeCursor([2 ** 31, ID]), ['integer', 'uuid'])).toThrow(INVALID_CURSOR_MESSAGE);
    expect(decodeTypedCursor(encodeCursor([2 ** 31 - 1, ID]), ['integer', 'uuid'])).toEqual([2 ** 31 - 1, ID]);
  });

  it('accepts the values of every kind a page ends on', () => {
    const values = ['2026-11-25 19:40:12.123456+00', '2026-11-25T19:40:12.123Z', ID, 4_500_000, 12, 1.5, '0.060793'];
    expect(
      decodeTypedCursor(encodeCursor(values), ['timestamptz', 'timestamptz', 'uuid', 'bigint', 'integer', 'float8', 'numeric']),
    ).toEqual(values);
  });

  it('refuses a forged cursor of a right length with a 400, not an error of the database', async () => {
    await expect(
      findKeysetPage(
        orm.em.fork(),
        ContactMessage,
        {},
        { sort: NEWEST_FIRST, limit: 3, cursor: encodeCursor(['2026-13-45 10:00:00+00', ID]) },
      ),
    ).rejects.toThrow(INVALID_CURSOR_MESSAGE);
  });
});
