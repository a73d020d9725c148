import { beforeAll, describe, expect, it } from '@jest/globals';
import { EntityManager } from '@mikro-orm/postgresql';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { NotificationView } from '../../contracts/notifications.js';
import type { DomainEvent, DomainEventName, DomainEventPayloads } from '../../events/domain-events.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { EVENT_LOG_PAGE, RealtimeEventLog } from '../../infra/realtime/event-log.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { listingBody, postListing } from '../../testing/listings.js';
import { deleteRedisKeys } from '../../testing/redis.js';
import { eventually, startTestApp, waitForJobs, type TestApp } from '../../testing/test-app.js';
import { createTestDatabase } from '../../testing/test-database.js';
import { useTestApp } from '../../testing/test-context.js';
import { ListingsService } from '../listings/listings.service.js';
import { MessageSummaries, type MessageSummary } from './message-summaries.js';
import { NotificationsService } from './notifications.service.js';
import { ReviewsService } from '../reviews/reviews.service.js';
import { SavedSearchesService } from '../saved-searches/saved-searches.service.js';
import { NotificationsSubscriber } from './notifications.subscriber.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Person = Awaited<ReturnType<typeof signedInPerson>>;
interface Listed {
  notifications: NotificationView[];
  unread_count: number;
}
interface LoggedEvents {
  events: Array<{ seq: number; type: string; payload: { seq?: number; data?: { notification?: NotificationView } } }>;
  latest_seq: number;
}

const notificationsOf = async (person: Person): Promise<Listed> =>
  (await person.browser.call('GET', '/api/notifications')).json<{ data: Listed }>().data;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

async function connect(url: string, cookies: string): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: cookies },
  });
  await new Promise((resolve, reject) => {
    socket.once('realtime:ready', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Publishes a domain event as a use case would: in a transaction. */
async function publish<N extends DomainEventName>(t: TestApp, name: N, payload: DomainEventPayloads[N]): Promise<void> {
  const em = t.app.get(EntityManager).fork();
  await em.transactional(async (tx) => void t.app.get(DomainEvents).publish(tx, name, payload));
}

describe('notifications', () => {
  let url: string;

  // The developer pages' diagnostic routes are switched on here: one test below reads them.
  const { db, t } = useTestApp({ API_RATE_LIMIT: '100000', IMAGE_UPLOADS_PER_HOUR: '1000', DIAGNOSTIC_ROUTES: 'true' });
  beforeAll(async () => {
    url = await listen(t);
  });

  describe('following categories', () => {
    it('follows and unfollows by slug; again is no error; an unknown category is a 404; visitors are refused', async () => {
      const jane = await signedInPerson(t);
      expect((await jane.browser.call('POST', '/api/follows/categories/land')).json()).toMatchObject({ data: { categories: ['land'] } });
      expect((await jane.browser.call('POST', '/api/follows/categories/land')).statusCode).toBe(200);
      await jane.browser.call('POST', '/api/follows/categories/rentals');
      expect((await jane.browser.call('GET', '/api/follows')).json()).toMatchObject({ data: { categories: ['land', 'rentals'] } });
      expect((await jane.browser.call('DELETE', '/api/follows/categories/land')).json()).toMatchObject({
        data: { categories: ['rentals'] },
      });

      const unknown = await jane.browser.call('POST', '/api/follows/categories/tractors');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false, error: 'Category not found' });
      const visitor = await t.app.inject({ method: 'GET', url: '/api/follows' });
      expect(visitor.statusCode).toBe(401);
    });
  });

  describe('created by events', () => {
    it('tells the followers of a category of a new listing there, live, and nobody else (not the seller, not other categories)', async () => {
      const [seller, follower, otherCategory, nobody] = await Promise.all([
        signedInPerson(t, newPerson('Sam Seller')),
        signedInPerson(t, newPerson('Fran Follower')),
        signedInPerson(t, newPerson('Olly Other')),
        signedInPerson(t, newPerson('Nora Nobody')),
      ]);
      await seller.browser.call('POST', '/api/follows/categories/equipment');
      await follower.browser.call('POST', '/api/follows/categories/equipment');
      await otherCategory.browser.call('POST', '/api/follows/categories/land');
      const tab = await connect(url, follower.browser.cookies);
      try {
        const live = new Promise<Parameters<ServerToClientEvents['NEW_LISTING']>[0] & { seq?: number }>((resolve) =>
          tab.once('NEW_LISTING', resolve),
        );
        const listing = await postListing(seller.browser, { title: 'Kverneland plough, four furrow' });
        const event = await live;
        expect(event.data.listing_id).toBe(listing.id);
        expect(event.data.notification).toMatchObject({
          kind: 'NEW_LISTING',
          type: 'info',
          title: 'New Listing Available',
          read: false,
          action_url: `/listing/${listing.id}`,
        });
        expect(event.data.notification.message).toContain('Kverneland plough, four furrow');
        expect(typeof event.seq).toBe('number');
        await waitForJobs(db);
        const stored = await notificationsOf(follower);
        expect(stored.unread_count).toBe(1);
        expect(stored.notifications[0]).toEqual(event.data.notification);
        for (const person of [seller, otherCategory, nobody]) expect((await notificationsOf(person)).notifications).toEqual([]);
      } finally {
        tab.close();
      }
    });

    it('tells followers of Rentals of a rental', async () => {
      const [owner, follower] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
      await follower.browser.call('POST', '/api/follows/categories/rentals');
      await postListing(owner.browser, {
        type: 'rent',
        category: 'equipment',
        subcategory: 'equipment',
        price_unit: 'per-day',
        title: 'Mini digger for hire by the day',
      });
      await waitForJobs(db);
      const [notification] = (await notificationsOf(follower)).notifications;
      expect(notification?.message).toContain('Mini digger for hire by the day');
      expect(notification?.message).toContain('Rentals');
    });

    it('tells those who saved a listing when its price or status changes, not when only its text does', async () => {
      const [seller, saver, other] = await Promise.all([signedInPerson(t), signedInPerson(t), signedInPerson(t)]);
      const listing = await postListing(seller.browser, { title: 'John Deere 6155R' });
      expect((await saver.browser.call('POST', '/api/listings/saved', { listingId: listing.id })).statusCode).toBe(200);
      const images = listing.images.map((image) => image.id);

      await seller.browser.call(
        'PUT',
        `/api/listings/${listing.id}`,
        await listingBody(seller.browser, { title: 'John Deere 6155R tractor', images }),
      );
      await waitForJobs(db);
      expect((await notificationsOf(saver)).notifications).toEqual([]);

      const repriced = await seller.browser.call(
        'PUT',
        `/api/listings/${listing.id}`,
        await listingBody(seller.browser, { title: 'John Deere 6155R tractor', price: 36000, images }),
      );
      expect(repriced.statusCode).toBe(200);
      await waitForJobs(db);
      const [priced] = (await notificationsOf(saver)).notifications;
      expect(priced).toMatchObject({ kind: 'LISTING_UPDATED', type: 'warning', title: 'Listing Updated' });
      expect(priced?.message).toBe('The price of "John Deere 6155R tractor" is now £36,000.');

      await seller.browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'sold' });
      await waitForJobs(db);
      const after = await notificationsOf(saver);
      expect(after.notifications.map((n) => n.message)).toEqual([
        '"John Deere 6155R tractor" has been sold.',
        'The price of "John Deere 6155R tractor" is now £36,000.',
      ]);
      for (const person of [seller, other]) expect((await notificationsOf(person)).notifications).toEqual([]);
    });

    it('tells the user their profile was updated', async () => {
      const jane = await signedInPerson(t);
      await jane.browser.call('PUT', '/api/profile', { full_name: 'Jane Hedgerow' });
      await waitForJobs(db);
      const [notification] = (await notificationsOf(jane)).notifications;
      expect(notification).toMatchObject({ kind: 'PROFILE_UPDATED', type: 'info', title: 'Profile Updated', action_url: '/profile' });
    });

    it('says only that a message came when messaging cannot tell more, and tells the requester of a booking decision', async () => {
      const [sender, recipient] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
      const conversationId = randomUUID();
      await publish(t, 'message.sent', { messageId: randomUUID(), conversationId, senderId: sender.id, recipientId: recipient.id });
      await publish(t, 'booking.decided', { messageId: randomUUID(), conversationId, requesterId: sender.id, decision: 'declined' });
      await waitForJobs(db);
      expect((await notificationsOf(recipient)).notifications).toEqual([
        expect.objectContaining({
          kind: 'NEW_MESSAGE',
          type: 'success',
          title: 'New Message',
          message: 'You have a new message.',
          action_url: `/messages?conversation=${conversationId}`,
        }),
      ]);
      expect((await notificationsOf(sender)).notifications).toEqual([
        expect.objectContaining({ kind: 'BOOKING', type: 'warning', message: 'Your booking request was declined.' }),
      ]);
    });

    describe('a new message, with what messaging says about it', () => {
      let summaries: Map<string, MessageSummary>;
      let subscriber: NotificationsSubscriber;
      beforeAll(() => {
        summaries = new Map();
        // A stand-in for messaging's answer; everything else is the application's own.
        const messages: MessageSummaries = { summary: (id: string) => Promise.resolve(summaries.get(id) ?? null) };
        subscriber = new NotificationsSubscriber(
          t.app.get(NotificationsService),
          t.app.get(ListingsService),
          messages,
          t.app.get(Realtime),
          t.app.get(RealtimeEventLog),
          t.app.get(SavedSearchesService),
          t.app.get(ReviewsService),
        );
      });
      const messageEvent = (payload: DomainEventPayloads['message.sent']): DomainEvent<'message.sent'> => ({
        id: randomUUID(),
        name: 'message.sent',
        occurredAt: new Date().toISOString(),
        payload,
      });

      it('gives the sender and the first 50 characters with an ellipsis; a retried job adds nothing and re-sends the same seq', async () => {
        const [sender, recipient] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
        const messageId = randomUUID();
        const conversationId = randomUUID();
        summaries.set(messageId, {
          senderName: 'Sam Seller',
          preview: 'Is the tractor still available? I could collect it this Saturday morning.',
          conversationId,
        });
        const tab = await connect(url, recipient.browser.cookies);
        const seqs: Array<number | undefined> = [];
        tab.on('MESSAGE_NOTIFICATION', (event) => seqs.push((event as { seq?: number }).seq));
        try {
          const event = messageEvent({ messageId, conversationId, senderId: sender.id, recipientId: recipient.id });
          await subscriber.newMessage(event);
          await subscriber.newMessage(event);
          const listed = await notificationsOf(recipient);
          expect(listed.notifications).toHaveLength(1);
          expect(listed.notifications[0]?.message).toBe('Sam Seller: Is the tractor still available? I could collect it...');
          await eventually(() => expect(seqs).toHaveLength(2));
          expect(seqs[0]).toBe(seqs[1]);
          const logged = (await recipient.browser.call('GET', '/api/realtime/events?after=0')).json<{ data: LoggedEvents }>().data;
          expect(logged.events.filter((e) => e.type === 'MESSAGE_NOTIFICATION')).toHaveLength(1);
        } finally {
          tab.close();
        }
      });

      it('takes a message’s notification from the recipient’s bell when its sender deletes their account', async () => {
        const [sender, recipient] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
        const messageId = randomUUID();
        summaries.set(messageId, { senderName: 'Gone Soon', preview: 'About the baler', conversationId: randomUUID() });
        await subscriber.newMessage(
          messageEvent({ messageId, conversationId: randomUUID(), senderId: sender.id, recipientId: recipient.id }),
        );
        await publish(t, 'user.profile-updated', { userId: recipient.id });
        await waitForJobs(db);
        expect((await notificationsOf(recipient)).notifications.map((n) => n.kind)).toEqual(['PROFILE_UPDATED', 'NEW_MESSAGE']);

        await publish(t, 'user.deleted', { userId: sender.id });
        await waitForJobs(db);
        const left = await notificationsOf(recipient);
        expect(left.notifications.map((n) => n.kind)).toEqual(['PROFILE_UPDATED']);
        expect(JSON.stringify(left)).not.toContain('Gone Soon');
      });

      it('tells nobody of a message to oneself', async () => {
        const jane = await signedInPerson(t);
        await subscriber.newMessage(
          messageEvent({ messageId: randomUUID(), conversationId: randomUUID(), senderId: jane.id, recipientId: jane.id }),
        );
        expect((await notificationsOf(jane)).notifications).toEqual([]);
      });
    });

    it('is idempotent for a listing too: one notification per event and follower however often the job runs', async () => {
      const [seller, follower] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
      await follower.browser.call('POST', '/api/follows/categories/land');
      const listing = await postListing(seller.browser, {
        category: 'land',
        title: 'Ten acres of grazing near Taunton',
        attributes: { acres: 10 },
      });
      await waitForJobs(db);
      const [job] = await db.query<{ event_id: string }>(
        `select payload->>'id' as event_id from outbox_job where name = 'notifications.new-listing' and payload->'payload'->>'listingId' = $1`,
        [listing.id],
      );
      const subscriber = t.app.get(NotificationsSubscriber);
      const event: DomainEvent<'listing.published'> = {
        id: String(job?.event_id),
        name: 'listing.published',
        occurredAt: new Date().toISOString(),
        payload: { listingId: listing.id },
      };
      await subscriber.newListing(event);
      expect((await notificationsOf(follower)).notifications).toHaveLength(1);
    });
  });

  describe('the calls', () => {
    let alice: Person;
    let bob: Person;
    beforeAll(async () => {
      [alice, bob] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
      // Twelve notifications for Alice, one for Bob.
      for (let i = 0; i < 12; i++) await publish(t, 'user.profile-updated', { userId: alice.id });
      await publish(t, 'user.profile-updated', { userId: bob.id });
      await waitForJobs(db);
    });

    it('lists the newest 10, newest first, with the unread count of all; visitors are refused', async () => {
      const listed = await notificationsOf(alice);
      expect(listed.notifications).toHaveLength(10);
      expect(listed.unread_count).toBe(12);
      const times = listed.notifications.map((n) => n.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    });

    it('marks one read, then all, and deletes one', async () => {
      const [first, second] = (await notificationsOf(alice)).notifications;
      const read = await alice.browser.call('PUT', `/api/notifications/${first?.id}/read`);
      expect(read.json()).toMatchObject({ data: { id: first?.id, read: true } });
      const afterOne = await notificationsOf(alice);
      expect(afterOne.unread_count).toBe(11);
      // Only that one: the others stay unread until opened or marked themselves.
      expect(afterOne.notifications.map((n) => n.read)).toEqual(afterOne.notifications.map((n) => n.id === first?.id));

      const deleted = await alice.browser.call('DELETE', `/api/notifications/${second?.id}`);
      expect(deleted.json()).toMatchObject({ data: { unread_count: 10 } });
      expect((await notificationsOf(alice)).notifications.map((n) => n.id)).not.toContain(second?.id);

      expect((await alice.browser.call('PUT', '/api/notifications/read-all')).json()).toMatchObject({ data: { unread_count: 0 } });
      expect((await notificationsOf(alice)).notifications.every((n) => n.read)).toBe(true);
      // Bob's are his own: still unread.
      expect((await notificationsOf(bob)).unread_count).toBe(1);
    });

    it('answers 404 for another user’s notification, and leaves it alone', async () => {
      const [bobs] = (await notificationsOf(bob)).notifications;
      const id = String(bobs?.id);
      for (const [method, path] of [
        ['PUT', `/api/notifications/${id}/read`],
        ['DELETE', `/api/notifications/${id}`],
        ['PUT', `/api/notifications/${randomUUID()}/read`],
        ['DELETE', '/api/notifications/not-an-id'],
      ] as const) {
        const response = await alice.browser.call(method, path);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ success: false, error: 'Notification not found' });
      }
      expect((await notificationsOf(bob)).notifications).toEqual([expect.objectContaining({ id, read: false })]);
    });

    it('exports them, and forgets them with the account', async () => {
      const carol = await signedInPerson(t);
      await carol.browser.call('POST', '/api/follows/categories/livestock');
      await publish(t, 'user.profile-updated', { userId: carol.id });
      await waitForJobs(db);
      const exported = (await carol.browser.call('GET', '/api/profile/export')).json<{ data: Record<string, unknown> }>().data;
      expect(exported['notifications']).toEqual([expect.objectContaining({ kind: 'PROFILE_UPDATED' })]);
      expect(exported['followed_categories']).toEqual(['livestock']);

      await publish(t, 'user.deleted', { userId: carol.id });
      await waitForJobs(db);
      for (const table of ['notification', 'category_follow', 'realtime_event', 'realtime_event_cursor'])
        expect(await db.query(`select 1 from ${table} where user_id = $1`, [carol.id])).toEqual([]);
    });
  });

  it('purges notifications after 90 days and logged events after 24 hours, leaving newer ones', async () => {
    const jane = await signedInPerson(t);
    for (let i = 0; i < 2; i++) await publish(t, 'user.profile-updated', { userId: jane.id });
    await waitForJobs(db);
    const [older] = (await notificationsOf(jane)).notifications.slice(-1);
    await db.query(`update notification set created_at = now() - interval '91 days' where id = $1`, [older?.id]);
    await db.query(`update realtime_event set created_at = now() - interval '25 hours' where user_id = $1 and seq = 1`, [jane.id]);

    await t.app.get(NotificationsService).purge();
    await t.app.get(RealtimeEventLog).purge();

    expect((await notificationsOf(jane)).notifications.map((n) => n.id)).not.toContain(older?.id);
    expect((await notificationsOf(jane)).notifications).toHaveLength(1);
    const logged = (await jane.browser.call('GET', '/api/realtime/events?after=0')).json<{ data: LoggedEvents }>().data;
    expect(logged.events.map((e) => e.seq)).toEqual([2]);
    expect(logged.latest_seq).toBe(2);
  });

  describe('catching up on the live channel', () => {
    it('returns exactly the events a client missed while away, in order, none twice, and only its own', async () => {
      const [jane, other] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
      // The other user's log runs ahead of Jane's, so a leak of theirs would show in Jane's answer.
      for (let i = 0; i < 8; i++) await publish(t, 'user.profile-updated', { userId: other.id });
      const tab = await connect(url, jane.browser.cookies);
      const seen: number[] = [];
      tab.on('PROFILE_UPDATED', (event) => seen.push(Number((event as { seq?: number }).seq)));
      await publish(t, 'user.profile-updated', { userId: jane.id });
      await publish(t, 'user.profile-updated', { userId: jane.id });
      await eventually(() => expect(seen).toHaveLength(2));
      tab.close();

      // Away: three events happen, and one to someone else.
      for (let i = 0; i < 3; i++) await publish(t, 'user.profile-updated', { userId: jane.id });
      await publish(t, 'user.profile-updated', { userId: other.id });
      await waitForJobs(db);

      const last = Math.max(...seen);
      const missed = (await jane.browser.call('GET', `/api/realtime/events?after=${last}`)).json<{ data: LoggedEvents }>().data;
      expect(missed.events.map((e) => e.seq)).toEqual([last + 1, last + 2, last + 3]);
      expect(missed.latest_seq).toBe(last + 3);
      expect(missed.events.every((e) => e.type === 'PROFILE_UPDATED' && e.payload.data?.notification?.kind === 'PROFILE_UPDATED')).toBe(
        true,
      );
      const again = (await jane.browser.call('GET', `/api/realtime/events?after=${missed.latest_seq}`)).json<{ data: LoggedEvents }>().data;
      expect(again.events).toEqual([]);
      // Without `after`: only where the log stands, to start from.
      expect((await jane.browser.call('GET', '/api/realtime/events')).json()).toMatchObject({ data: { events: [], latest_seq: last + 3 } });
    });

    it('numbers a user’s events 1, 2, 3... with none twice when many are logged at once, each with its own payload', async () => {
      const jane = await signedInPerson(t);
      const log = t.app.get(RealtimeEventLog);
      const start = (await log.after(jane.id, 0)).latest;
      const seqs = await Promise.all(Array.from({ length: 20 }, (_, i) => log.append(jane.id, 'PROFILE_UPDATED', { i })));
      expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => start + i + 1));
      // A repeated key (a retried job) keeps the seq it was given and logs nothing new.
      const keyed = await log.append(jane.id, 'PROFILE_UPDATED', { i: 20 }, 'notification:retried');
      expect(await log.append(jane.id, 'PROFILE_UPDATED', { i: 20 }, 'notification:retried')).toBe(keyed);
      expect(keyed).toBe(start + 21);
      const { events, latest } = await log.after(jane.id, start);
      expect(latest).toBe(start + 21);
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => start + i + 1));
      for (const event of events) expect((event.payload as { i: number }).i).toBe(event.seq === keyed ? 20 : seqs.indexOf(event.seq));
    });

    it('logs events for many users in one write: each user’s next numbers in order, a repeated key keeping its seq, beside single appends', async () => {
      const [jane, john] = [await signedInPerson(t), await signedInPerson(t)];
      const log = t.app.get(RealtimeEventLog);
      const starts = [(await log.after(jane.id, 0)).latest, (await log.after(john.id, 0)).latest];
      const many = (i: number) => [
        { userId: jane.id, type: 'PROFILE_UPDATED', payload: { i }, key: `bulk:${i}` },
        { userId: john.id, type: 'PROFILE_UPDATED', payload: { i } },
        { userId: jane.id, type: 'PROFILE_UPDATED', payload: { i: i + 1 } },
      ];
      const [first, single, second] = await Promise.all([
        log.appendMany(many(0)),
        log.append(jane.id, 'PROFILE_UPDATED', { i: 9 }),
        log.appendMany(many(2)),
      ]);
      const janes = [...(first ?? []).filter((_, i) => i !== 1), ...(second ?? []).filter((_, i) => i !== 1), single].sort((a, b) => a - b);
      expect(janes).toEqual([1, 2, 3, 4, 5].map((n) => (starts[0] as number) + n));
      expect([first?.[1], second?.[1]].sort()).toEqual([1, 2].map((n) => (starts[1] as number) + n));
      // A retried job's events: the keyed one keeps its seq; the unkeyed ones are logged again.
      const retried = await log.appendMany(many(0));
      expect(retried[0]).toBe(first?.[0]);
      const { events } = await log.after(jane.id, starts[0] as number);
      expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6].map((n) => (starts[0] as number) + n));
      expect(events.find((e) => e.seq === first?.[0])?.payload).toEqual({ i: 0 });
    });

    it('never counts in latest_seq an event it does not return, while events are being logged', async () => {
      // A client that reads no events below latest_seq takes them as purged and skips them: while polling, a
      // message logged during the read would be lost.
      const jane = await signedInPerson(t);
      const log = t.app.get(RealtimeEventLog);
      let handled = (await log.after(jane.id, 0)).latest;
      let appending = true;
      const appends = (async () => {
        for (let i = 0; i < 300; i++) await log.append(jane.id, 'PROFILE_UPDATED', { i });
        appending = false;
      })();
      const skipped: number[] = [];
      while (appending) {
        const { events, latest } = await log.after(jane.id, handled);
        const last = events.at(-1)?.seq ?? handled;
        if (events.length < EVENT_LOG_PAGE && last < latest) skipped.push(latest - last);
        handled = last;
      }
      await appends;
      expect(skipped).toEqual([]);
    });

    it('refuses a bad `after` with a clear message, and visitors', async () => {
      const jane = await signedInPerson(t);
      const bad = await jane.browser.call('GET', '/api/realtime/events?after=-1');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ fields: { after: 'after must be a whole number' } });
      expect((await jane.browser.call('GET', '/api/realtime/events?after=abc')).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'GET', url: '/api/realtime/events?after=0' })).statusCode).toBe(401);
    });

    it('gives diagnostics of the caller’s own channel: its sockets, its log, its unread count', async () => {
      const jane = await signedInPerson(t);
      const tab = await connect(url, jane.browser.cookies);
      try {
        await publish(t, 'user.profile-updated', { userId: jane.id });
        await waitForJobs(db);
        const realtime = (await jane.browser.call('GET', '/api/test/realtime')).json<{ data: Record<string, unknown> }>().data;
        expect(realtime).toMatchObject({
          your_sockets: 1,
          latest_seq: 1,
          heartbeat: { ping_interval_ms: 25_000, ping_timeout_ms: 10_000 },
        });
        const polling = (await jane.browser.call('GET', '/api/test/polling')).json<{ data: Record<string, unknown> }>().data;
        expect(polling).toMatchObject({ polling_interval_ms: 5_000, latest_seq: 1, events_kept: 1, unread_notifications: 1 });
        expect((await t.app.inject({ method: 'GET', url: '/api/test/realtime' })).statusCode).toBe(401);
        // The live channel answers the browser's latency probe.
        const reply = await tab.timeout(5_000).emitWithAck('realtime:ping');
        expect(typeof reply.receivedAt).toBe('string');
      } finally {
        tab.close();
      }
    });

    it('has no diagnostic routes unless DIAGNOSTIC_ROUTES is on (the default outside development): 404 to everyone', async () => {
      // Both apps' workers take jobs from the one database, so the confirmation mail of a sign-up may be
      // written by either: they share one data folder, hence one mail outbox.
      const production = await startTestApp(db, { NODE_ENV: 'production', API_RATE_LIMIT: '100000', DATA_DIR: t.config.dataDir });
      try {
        // Signed up through the first app; the session is in the database, good for both.
        const jane = new Browser(production);
        jane.cookies = (await signedInPerson(t)).browser.cookies;
        for (const path of ['/api/test/realtime', '/api/test/polling']) {
          const signedIn = await jane.call('GET', path);
          const visitor = await production.app.inject({ method: 'GET', url: path });
          for (const answer of [signedIn, visitor]) {
            expect([answer.statusCode, answer.json()]).toEqual([404, { success: false, error: `No API endpoint at GET ${path}` }]);
          }
        }
        // The live channel's own catch-up call is not a diagnostic: it stays.
        expect((await jane.call('GET', '/api/realtime/events?after=0')).statusCode).toBe(200);
      } finally {
        await production.close();
      }
    });
  });
});

// Redis runs on every developer machine and in CI (README).
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
describe('notifications across two web processes on Redis', () => {
  it('reaches a socket held by one web process when the listing is posted through the other', async () => {
    const db = await createTestDatabase();
    // The first holds the socket and runs no jobs; the second takes the post and runs the subscriber.
    const first = await startTestApp(db, {
      REDIS_URL: redisUrl,
      WORKERS_IN_PROCESS: 'false',
      API_RATE_LIMIT: '100000',
      IMAGE_UPLOADS_PER_HOUR: '1000',
    });
    const second = await startTestApp(db, {
      REDIS_URL: redisUrl,
      WORKERS_IN_PROCESS: 'true',
      QUEUE_PREFIX: first.config.queue.prefix,
      DATA_DIR: first.config.dataDir,
      API_RATE_LIMIT: '100000',
      IMAGE_UPLOADS_PER_HOUR: '1000',
    });
    let tab: ClientSocket | undefined;
    try {
      const firstUrl = await listen(first);
      await listen(second);
      const follower = await signedInPerson(first);
      const seller = await signedInPerson(second);
      await follower.browser.call('POST', '/api/follows/categories/equipment');
      tab = await connect(firstUrl, follower.browser.cookies);
      const live = new Promise<Parameters<ServerToClientEvents['NEW_LISTING']>[0]>((resolve) => tab?.once('NEW_LISTING', resolve));
      const listing = await postListing(seller.browser, { title: 'Bale wrapper, Tanco 1080' });
      expect((await live).data.listing_id).toBe(listing.id);
    } finally {
      tab?.close();
      await second.close();
      await first.close();
      await deleteRedisKeys(redisUrl, first.config.queue.prefix);
      await db.drop();
    }
  });
});
