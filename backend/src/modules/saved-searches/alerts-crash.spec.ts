import { describe, expect, it } from '@jest/globals';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { insertListing } from '../../testing/listings.js';
import { BUILT, spawnBuilt, type RunningProcess } from '../../testing/processes.js';
import { eventually, readOutbox, startTestApp, type OutboxMail, type TestApp } from '../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { SEARCH_QUERY_VERSION } from '../listings/listing-search/search-query.js';
import { headerOf, type ReceivedMail, startSmtpSink } from '../../testing/smtp-sink.js';
import { lastDigestDue } from './digest-schedule.js';
import { MATCH_COLUMNS_VERSION } from './search-percolator.js';

/**
 * Nothing lost or doubled when the worker process is killed (-9) in the middle of sending alerts:
 * real worker processes (the built workers/dist) on PostgreSQL queues, one killed part-way through
 * a daily digest and through a burst of instant alerts, another started; every due alert must then
 * have arrived exactly once per (search, listing). A mail sent again after a crash carries its first
 * sending's Message-ID, and the receiving server keeps one: arrivals are counted by Message-ID.
 */
describe('saved-search alerts when the worker is killed (-9)', () => {
  interface World {
    db: TestDatabase;
    t: TestApp;
    seller: string;
    start(): RunningProcess;
    /** Ends the database sessions of the workers killed so far, as PostgreSQL does once it notices; how many. */
    endSessionsOfKilled(): Promise<number>;
    stop(): Promise<void>;
  }

  /** The workers' sessions are named (PGAPPNAME), so those of a killed one can be told from the rest. */
  const WORKER_SESSIONS = 'alerts-crash-worker';

  /** `smtpUrl`: the workers mail through that server (else into the outbox folder). */
  const world = async (smtpUrl?: string): Promise<World> => {
    const db = await createTestDatabase();
    const t = await startTestApp(db, { WORKERS_IN_PROCESS: 'false' });
    const workers: RunningProcess[] = [];
    const [seller] = await db.query<{ id: string }>(
      `insert into app_user (id, email, email_verified_at, full_name, provider, role, profile_visible, contact_visible, listings_visible,
         email_notifications, push_notifications, created_at, updated_at, last_active_at)
       values (gen_random_uuid(), 'seller@crash.example', now(), 'Sam Seller', 'password', 'user', true, true, true, true, true, now(), now(), now())
       returning id`,
    );
    // A killed worker's session still running a statement (its wait for jobs, up to seconds) lives on
    // until that statement ends; one held back by the test would then still be carried out.
    const endSessionsOfKilled = async () => {
      const killed = workers.flatMap((worker, i) => (worker.child.signalCode === 'SIGKILL' ? [`${WORKER_SESSIONS}-${i}`] : []));
      const ended = await db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = any($1)`,
        [killed],
      );
      return ended.length;
    };
    return {
      db,
      t,
      seller: (seller as { id: string }).id,
      start: () => {
        const worker = spawnBuilt(BUILT.worker, {
          DATABASE_URL: db.url,
          QUEUE_PREFIX: t.config.queue.prefix,
          ...(smtpUrl ? { SMTP_URL: smtpUrl } : { MAIL_OUTBOX_DIR: t.config.mail.outboxDir }),
          DATA_DIR: t.config.dataDir,
          POSTCODES_API_URL: 'http://127.0.0.1:9',
          // What the killed worker held (its running jobs, the outbox entries it was queueing) is taken
          // up again after 4-8 s rather than the default 30-60 s.
          JOB_LEASE_SECONDS: '4',
          LOG_LEVEL: 'warn',
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PGAPPNAME: `${WORKER_SESSIONS}-${workers.length}`,
        });
        workers.push(worker);
        return worker;
      },
      endSessionsOfKilled,
      stop: async () => {
        for (const worker of workers) {
          if (worker.child.exitCode === null && worker.child.signalCode === null) {
            worker.child.kill('SIGKILL');
            await worker.exited;
          }
        }
        await endSessionsOfKilled();
        await t.close();
        await db.drop();
      },
    };
  };

  /** `count` buyers, each with one saved search for `words` at `frequency`. */
  const buyersWithSearches = async (db: TestDatabase, count: number, words: string, frequency: string) =>
    (
      await db.query<{ id: string; user_id: string }>(
        `with buyers as (
           insert into app_user (id, email, email_verified_at, full_name, provider, role, profile_visible, contact_visible, listings_visible,
             email_notifications, push_notifications, created_at, updated_at, last_active_at)
           select gen_random_uuid(), 'buyer' || i || '-' || $4 || '@crash.example', now(), 'Buyer ' || i, 'password', 'user', true, true, true,
             true, true, now(), now(), now()
           from generate_series(1, $1::int) i returning id)
         insert into saved_search (id, user_id, name, query, frequency, price_drops, unsubscribe_token, last_seen_at,
           match_version, words, created_at, updated_at)
         select gen_random_uuid(), b.id, $2::text, $3::jsonb, $5, true, substr(md5(random()::text) || md5(random()::text), 1, 43), now(),
           $6, $2::text, now(), now()
         from buyers b returning id, user_id`,
        [
          count,
          words,
          JSON.stringify({ version: SEARCH_QUERY_VERSION, params: { q: words } }),
          randomBytes(4).toString('hex'),
          frequency,
          MATCH_COLUMNS_VERSION,
        ],
      )
    ).map((row) => ({ search: row.id, user: row.user_id }));

  const pending = async (db: TestDatabase) =>
    Number((await db.query<{ n: string }>('select count(*) as n from outbox_job where completed_at is null and failed_at is null'))[0]?.n);

  /** The mails as they arrived: one per Message-ID (a resend after a crash is the same message). */
  const arrived = async (t: TestApp) => {
    const byId = new Map<string, OutboxMail>();
    for (const mail of await readOutbox(t.config.mail.outboxDir)) {
      if (mail.messageId.startsWith('<saved-search-alert-')) byId.set(mail.messageId, mail);
    }
    return [...byId.values()];
  };

  /** How many arrived mails to `email` name the listing. */
  const mailsNaming = (mails: OutboxMail[], email: string, listing: string) =>
    mails.filter((mail) => mail.to === email && mail.text.includes(`/listing/${listing}`)).length;

  it('sends the daily digest exactly once per (search, listing) when the worker is killed mid-send; the mail resent carries its Message-ID', async () => {
    // The SMTP server has the whole of the 10th mail when the worker dies, before it hears the server's 250:
    // sent, and not recorded as sent. The next worker sends it again, under the same Message-ID.
    const KILL_AT = 10;
    let worker: RunningProcess | undefined;
    let killedMail: ReceivedMail | undefined;
    const smtp = await startSmtpSink({
      onReceived: (mail, index) => {
        if (index !== KILL_AT - 1 || !worker) return;
        killedMail = mail;
        worker.child.kill('SIGKILL');
      },
    });
    const w = await world(smtp.url);
    try {
      const searches = await buyersWithSearches(w.db, 40, 'baler', 'daily');
      const listings: string[] = [];
      for (const title of ['Round baler', 'Square baler', 'Baler twine, 10 spools']) {
        listings.push(await insertListing(w.db, { seller: w.seller, title }));
      }
      // The day's matches, recorded before this morning's 07:00.
      const due = lastDigestDue('daily', new Date());
      await w.db.query(
        `insert into saved_search_hit (listing_id, occasion, price_pence, matched_at, searches)
         select l.id, 'new', l.price_pence, $2, (select array_agg(number) from saved_search) from listing l where l.id = any($1::uuid[])`,
        [listings, new Date(due.getTime() - 3600_000)],
      );
      worker = w.start();
      await worker.exited;
      expect(killedMail).toBeDefined();
      w.start();
      // The mails as they arrived, one per Message-ID (a resend after a crash is the same message).
      const byMessageId = () => {
        const byId = new Map<string, ReceivedMail[]>();
        for (const mail of smtp.received) {
          const id = headerOf(mail.raw, 'Message-ID') as string;
          if (id.startsWith('<saved-search-alert-')) byId.set(id, [...(byId.get(id) ?? []), mail]);
        }
        return byId;
      };
      await eventually(async () => {
        expect(byMessageId().size).toBe(searches.length);
        expect(await pending(w.db)).toBe(0);
      }, 240_000);
      const arrivals = byMessageId();
      // The mail the worker died sending arrived again, under its Message-ID, and counts once.
      const killedId = headerOf((killedMail as ReceivedMail).raw, 'Message-ID') as string;
      expect(arrivals.get(killedId)?.length).toBeGreaterThanOrEqual(2);
      expect(smtp.received.length).toBeGreaterThan(arrivals.size);
      const emails = new Map(
        (await w.db.query<{ id: string; email: string }>('select id, email from app_user')).map((row) => [row.id, row.email]),
      );
      // (Quoted-printable's soft line breaks joined, so a link reads whole.)
      const text = (mail: ReceivedMail) => mail.raw.replace(/=\r?\n/g, '');
      for (const { user } of searches) {
        const email = emails.get(user) as string;
        const mine = [...arrivals.values()].filter((copies) => copies[0]?.to.includes(email));
        expect([email, mine.length]).toEqual([email, 1]);
        for (const listing of listings) {
          const naming = (mine[0] ?? []).filter((copy) => text(copy).includes(`/listing/${listing}`)).length;
          // Every copy of the one mail names each listing (a resend is the same message).
          expect([email, listing, naming]).toEqual([email, listing, mine[0]?.length]);
        }
      }
    } finally {
      await w.stop();
      await smtp.close();
    }
  }, 420_000);

  it('tells every instant search of every listing of a burst exactly once (bell, and the e-mail due) when the worker is killed mid-burst', async () => {
    const w = await world();
    try {
      const searches = await buyersWithSearches(w.db, 40, 'harrow', 'instant');
      const listings: string[] = [];
      for (let i = 0; i < 24; i++) listings.push(await insertListing(w.db, { seller: w.seller, title: `Power harrow ${i + 1}` }));
      const events = w.t.app.get(DomainEvents);
      await w.t.app
        .get(EntityManager)
        .fork()
        .transactional(async (tx) => {
          for (const listingId of listings) events.publish(tx, 'listing.published', { listingId });
        });
      const due = searches.length * listings.length;
      const recorded = async () =>
        Number((await w.db.query<{ n: string }>('select coalesce(sum(cardinality(searches)), 0) as n from saved_search_hit'))[0]?.n);
      // The first listings' match jobs are killed after their matches committed and before the job was
      // recorded done (their outbox entries are held here, once queued), so the next worker runs them
      // again: matching must tell nobody twice. The others run through, ringing bells, until the kill.
      const HELD = 3;
      const matchJobs = `from outbox_job where name = 'saved-searches.match-published'`;
      await eventually(async () => {
        const [queued] = await w.db.query<{ n: string }>(`select count(*) as n ${matchJobs} and enqueued_at is not null`);
        expect(Number(queued?.n)).toBe(listings.length);
      });
      const holder = new pg.Client({ connectionString: w.db.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query(`select id ${matchJobs} and payload->'payload'->>'listingId' = any($1) for update`, [listings.slice(0, HELD)]);
      const worker = w.start();
      try {
        await eventually(async () => {
          const [state] = await w.db.query<{ held_matched: string; waiting: string; bells: string }>(
            `select (select count(distinct listing_id) from saved_search_hit where listing_id = any($1)) as held_matched,
               (select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock') as waiting,
               (select count(*) from notification) as bells`,
            [listings.slice(0, HELD)],
          );
          expect([Number(state?.held_matched), Number(state?.waiting)]).toEqual([HELD, HELD]);
          expect(Number(state?.bells)).toBeGreaterThanOrEqual(searches.length);
        }, 150_000);
        worker.child.kill('SIGKILL');
        await worker.exited;
        // Its statements still waiting would run once the entries are let go: a process that died before
        // recording its jobs done never sends them, so they end with it.
        expect(await w.endSessionsOfKilled()).toBeGreaterThanOrEqual(HELD);
      } finally {
        await holder.query('rollback');
        await holder.end();
      }
      const [bellsAtKill] = await w.db.query<{ n: string }>('select count(*) as n from notification');
      expect(Number(bellsAtKill?.n)).toBeLessThan(due);
      w.start();
      await eventually(async () => {
        expect(await recorded()).toBe(due);
        expect(await pending(w.db)).toBe(0);
      }, 240_000);
      // The bell: one notification per (search's owner, listing).
      const bells = await w.db.query<{ user_id: string; action_url: string; n: string }>(
        `select user_id, action_url, count(*) as n from notification group by user_id, action_url`,
      );
      expect(bells).toHaveLength(due);
      expect(bells.filter((bell) => bell.n !== '1')).toEqual([]);
      // The e-mail: at most one per 15 minutes, so the first batch of each search is due now (the rest
      // wait for the next); every match put in a batch arrived in exactly one mail, and none twice.
      const batched = await w.db.query<{ email: string; listing_id: string }>(
        `select u.email, h.listing_id from saved_search_mail_part p join saved_search s on s.id = p.saved_search_id
           join app_user u on u.id = s.user_id
           join saved_search_hit h on h.searches @> array[s.number] and h.id > p.after_hit and h.id <= p.through_hit`,
      );
      expect(new Set(batched.map((row) => row.email)).size).toBe(searches.length);
      const mails = await arrived(w.t);
      expect(mails).toHaveLength(searches.length);
      for (const { email, listing_id: listing } of batched) {
        expect([email, listing, mailsNaming(mails, email, listing)]).toEqual([email, listing, 1]);
      }
      for (const listing of listings) {
        const naming = mails.filter((mail) => mail.text.includes(`/listing/${listing}`)).length;
        expect(naming).toBe(batched.filter((row) => row.listing_id === listing).length);
      }
    } finally {
      await w.stop();
    }
  }, 420_000);
});
