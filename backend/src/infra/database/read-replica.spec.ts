import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { uploadPhotos } from '../../testing/images.js';
import { listingBody } from '../../testing/listings.js';
import { freePort } from '../../testing/processes.js';
import { debianPostgresBin, startPrimaryWithReplica, type PrimaryWithReplica } from '../../testing/local-postgres.js';
import { eventually, startTestApp, type TestApp } from '../../testing/test-app.js';
import type { TestDatabase } from '../../testing/test-database.js';
import { migrateDatabase } from './migrate.js';

const bin = debianPostgresBin();
if (!bin)
  console.warn('read-replica.spec: skipped, no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
const describeWithPostgres = bin ? describe : describe.skip;

const OPERATOR = 'operator-token-for-tests-0123456789abcdef';

interface Card {
  id: string;
  title: string;
  price: number;
}

describeWithPostgres('DATABASE_REPLICA_URL: browsing reads the replica, a seller their own writes from the primary', () => {
  let cluster: PrimaryWithReplica;
  let db: TestDatabase;
  let t: TestApp;
  let replica: pg.Client;

  beforeAll(async () => {
    // Ports the system says are free now: fixed ones (56100-56199 before) lie in the range the kernel
    // hands out to outgoing connections, and the primary once failed to start on one taken that way.
    const primaryPort = await freePort();
    let replicaPort = await freePort();
    while (replicaPort === primaryPort) replicaPort = await freePort();
    cluster = await startPrimaryWithReplica(bin as string, { primary: primaryPort, replica: replicaPort });
    await migrateDatabase(cluster.primaryUrl, { queueSchema: true });
    const pool = new pg.Pool({ connectionString: cluster.primaryUrl, max: 2 });
    db = {
      url: cluster.primaryUrl,
      query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await pool.query<T>(sql, params)).rows,
      drop: () => pool.end(),
    };
    replica = new pg.Client({ connectionString: cluster.replicaUrl });
    await replica.connect();
    t = await startTestApp(db, {
      DATABASE_REPLICA_URL: cluster.replicaUrl,
      // Every answer from the database, none from the search cache.
      SEARCH_CACHE_MS: '0',
      OUTBOX_POLL_SECONDS: '300',
      API_RATE_LIMIT: '100000',
      OPERATOR_TOKEN: OPERATOR,
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await replica?.end();
    await db?.drop();
    await cluster?.stop();
  });

  it('shows the seller their edits at once while visitors see the lagging replica, and both agree once it catches up', async () => {
    const seller = await signedInPerson(t);
    const images = await uploadPhotos(seller.browser, 1, { ready: false });
    // The test-data factory's equipment listing, as this plough, with the same photo each time.
    const plough = (title: string, price: number) =>
      listingBody(seller.browser, { title, price, attributes: { make: 'Kverneland', model: 'LB 100', year: 2012 }, images });
    const posted = await seller.browser.call('POST', '/api/listings', await plough('Kverneland plough, four furrow', 4200));
    expect(posted.statusCode).toBe(201);
    const listing = posted.json<{ data: { id: string } }>().data;

    const visitor = new Browser(t);
    const browse = async () => {
      const page = await visitor.call('GET', '/api/listings?sort=newest');
      return page.json<{ data: { listings: Card[] } }>().data.listings.find((card) => card.id === listing.id);
    };
    const search = async () => {
      const page = await visitor.call('GET', '/api/listings?q=plough');
      return page.json<{ data: { listings: Card[] } }>().data.listings.find((card) => card.id === listing.id);
    };
    const visitorDetail = async () => (await visitor.call('GET', `/api/listings/${listing.id}`)).json<{ data: Card }>().data;
    const profileAs = async (who: Browser) =>
      (await who.call('GET', `/api/profile/public/${seller.id}`)).json<{ data: { bio: string | null } }>().data;
    const sellerPageAs = async (who: Browser) =>
      (await who.call('GET', `/api/users/${seller.id}/listings`)).json<{ data: { listings: Card[] } }>().data.listings;
    // The replica has the new listing.
    await eventually(async () => expect(await browse()).toMatchObject({ title: 'Kverneland plough, four furrow', price: 4200 }));

    // The replica stops applying what the primary sends: it lags from here on.
    await replica.query('select pg_wal_replay_pause()');
    await eventually(async () => {
      const [{ state }] = (await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state')).rows;
      expect(state).toBe('paused');
    });

    const edit = await seller.browser.call(
      'PUT',
      `/api/listings/${listing.id}`,
      await plough('Kverneland plough, four furrow, reduced', 3600),
    );
    expect(edit.statusCode).toBe(200);
    const bio = await seller.browser.call('PUT', '/api/profile', { full_name: seller.person.name, bio: 'Arable and sheep on the Levels.' });
    expect(bio.statusCode).toBe(200);

    // The seller sees their change at once: their listing and My Listings read the primary.
    const own = await seller.browser.call('GET', `/api/listings/${listing.id}`);
    expect(own.json<{ data: Card }>().data).toMatchObject({ title: 'Kverneland plough, four furrow, reduced', price: 3600 });
    const mine = await seller.browser.call('GET', '/api/listings/mine');
    expect(mine.json<{ data: { listings: Card[] } }>().data.listings).toEqual([
      expect.objectContaining({ id: listing.id, title: 'Kverneland plough, four furrow, reduced', price: 3600 }),
    ]);

    // Their public profile and public listings too, as they look at them.
    expect(await profileAs(seller.browser)).toMatchObject({ bio: 'Arable and sheep on the Levels.' });
    expect(await sellerPageAs(seller.browser)).toEqual([expect.objectContaining({ title: 'Kverneland plough, four furrow, reduced' })]);

    // A visitor's browse, search, listing page and the seller's public pages come from the replica: still the old values.
    expect(await browse()).toMatchObject({ title: 'Kverneland plough, four furrow', price: 4200 });
    expect(await search()).toMatchObject({ title: 'Kverneland plough, four furrow', price: 4200 });
    expect(await visitorDetail()).toMatchObject({ title: 'Kverneland plough, four furrow', price: 4200 });
    expect(await profileAs(visitor)).toMatchObject({ bio: null });
    expect(await sellerPageAs(visitor)).toEqual([expect.objectContaining({ title: 'Kverneland plough, four furrow' })]);

    // Replay resumes: visitors see what the seller sees.
    await replica.query('select pg_wal_replay_resume()');
    await eventually(async () => {
      expect(await browse()).toMatchObject({ title: 'Kverneland plough, four furrow, reduced', price: 3600 });
      expect(await search()).toMatchObject({ title: 'Kverneland plough, four furrow, reduced', price: 3600 });
      expect(await visitorDetail()).toMatchObject({ title: 'Kverneland plough, four furrow, reduced', price: 3600 });
      expect(await profileAs(visitor)).toMatchObject({ bio: 'Arable and sheep on the Levels.' });
      expect(await sellerPageAs(visitor)).toEqual([expect.objectContaining({ title: 'Kverneland plough, four furrow, reduced' })]);
    });
  }, 120_000);

  it('serves visitors from the primary while the replica is down, says so to operators, and reads the replica again once it is back', async () => {
    const seller = await signedInPerson(t);
    const posted = await seller.browser.call(
      'POST',
      '/api/listings',
      await listingBody(seller.browser, { title: 'Cambridge roll, 6 metre', price: 2400 }),
    );
    expect(posted.statusCode).toBe(201);
    const listing = posted.json<{ data: { id: string } }>().data;
    const visitor = new Browser(t);
    const visitorSees = async () => {
      const [browse, search, detail, profile, sellerPage] = await Promise.all([
        visitor.call('GET', '/api/listings?sort=newest'),
        visitor.call('GET', '/api/listings?q=cambridge'),
        visitor.call('GET', `/api/listings/${listing.id}`),
        visitor.call('GET', `/api/profile/public/${seller.id}`),
        visitor.call('GET', `/api/users/${seller.id}/listings`),
      ]);
      for (const answer of [browse, search, detail, profile, sellerPage]) expect(answer.statusCode).toBe(200);
      return {
        browse: browse.json<{ data: { listings: Card[] } }>().data.listings.find((card) => card.id === listing.id),
        search: search.json<{ data: { listings: Card[] } }>().data.listings.find((card) => card.id === listing.id),
        detail: detail.json<{ data: Card }>().data,
        sellerPage: sellerPage.json<{ data: { listings: Card[] } }>().data.listings.find((card) => card.id === listing.id),
      };
    };
    const replicaCheck = async () => {
      const details = await t.app.inject({ method: 'GET', url: '/api/health/details', headers: { authorization: `Bearer ${OPERATOR}` } });
      return details
        .json<{ data: { checks: Array<{ name: string; status: string; message: string }> } }>()
        .data.checks.find((c) => c.name === 'replica');
    };
    await eventually(async () => expect((await visitorSees()).browse).toMatchObject({ price: 2400 }));
    expect(await replicaCheck()).toMatchObject({ status: 'up' });

    // (The test's own replica connection would die with it, unheard.)
    await replica.end();
    await cluster.stopReplica();
    try {
      // The seller's edit is on the primary only; with the replica gone, visitors are served from there.
      const edit = await seller.browser.call(
        'PUT',
        `/api/listings/${listing.id}`,
        await listingBody(seller.browser, { title: 'Cambridge roll, 6 metre', price: 2100 }),
      );
      expect(edit.statusCode).toBe(200);
      const seen = await visitorSees();
      for (const card of [seen.browse, seen.search, seen.detail, seen.sellerPage]) expect(card).toMatchObject({ price: 2100 });
      // Health stays usable (degraded, not down): the site works without the replica.
      // (Checks are reused for 5 s.)
      await eventually(async () =>
        expect(await replicaCheck()).toMatchObject({
          status: 'degraded',
          message: 'Pages are served from the main database while the read replica is unavailable',
        }),
      );
      const health = await visitor.call('GET', '/api/health');
      expect(health.statusCode).toBe(200);
    } finally {
      await cluster.startReplica();
    }

    // Back: once it has replayed what it missed, and the retry pause is over, visitors read it again,
    // which shows as lag when its replay is paused.
    await eventually(async () => expect(await replicaCheck()).toMatchObject({ status: 'up' }), 30_000);
    replica = new pg.Client({ connectionString: cluster.replicaUrl });
    await replica.connect();
    await replica.query('select pg_wal_replay_pause()');
    try {
      const edit = await seller.browser.call(
        'PUT',
        `/api/listings/${listing.id}`,
        await listingBody(seller.browser, { title: 'Cambridge roll, 6 metre', price: 1900 }),
      );
      expect(edit.statusCode).toBe(200);
      await eventually(async () => expect((await visitorSees()).detail).toMatchObject({ price: 2100 }), 30_000);
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
  }, 120_000);
});
