import { beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { INVALID_CURSOR_MESSAGE } from '../../common/keyset-pagination.js';
import { bookingDay, MESSAGE_MAX_LENGTH, MESSAGING_TEXTS, SENDS_PER_MINUTE } from '../../contracts/messaging.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import {
  type ConversationView as Conversation,
  day,
  decideBooking,
  type MessageView as Message,
  requestBooking,
  sendMessage,
  startConversation,
} from '../../testing/conversations.js';
import { insertListing, type ListingFixture } from '../../testing/listings.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { MessagingLifecycle } from './messaging-lifecycle.js';

type Person = Awaited<ReturnType<typeof signedInPerson>>;
type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const PUBLIC_URL = 'https://fieldmarket.example';

describe('messaging', () => {
  let url: string;

  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', PUBLIC_URL });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  const person = () => signedInPerson(t);
  const listingOf = (seller: Person, change: Partial<ListingFixture> = {}) =>
    insertListing(db, { seller: seller.id, title: 'Kverneland plough, 4 furrow', ...change });
  const rentalOf = (seller: Person, attributes: Record<string, unknown> = {}) =>
    insertListing(db, {
      seller: seller.id,
      title: 'Grazing for 40 ewes',
      type: 'rent',
      category: 6,
      rentSubcategory: 'land',
      attributes: { acres: 12, ...attributes },
    });

  const listPage = async (who: Person, query = '') => {
    const response = await who.browser.call('GET', `/api/messages/conversations${query}`);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ data: { conversations: Conversation[]; next_cursor: string | null } }>().data;
  };
  const list = async (who: Person) => (await listPage(who)).conversations;
  const page = async (who: Person, conversationId: string, query = '') => {
    const response = await who.browser.call('GET', `/api/messages/conversations/${conversationId}/messages${query}`);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ data: { messages: Message[]; next_cursor: string | null } }>().data;
  };
  const unread = async (who: Person) =>
    (await who.browser.call('GET', `/api/messages/unread/${who.id}`)).json<{
      data: { total: number; conversations: Array<{ conversation_id: string; count: number }> };
    }>().data;

  /** A buyer and a seller talking about one of the seller's listings. */
  const pair = async () => {
    const [buyer, seller] = await Promise.all([person(), person()]);
    const listingId = await listingOf(seller);
    const conversation = await startConversation(buyer, listingId);
    return { buyer, seller, listingId, conversation };
  };

  function connect(who: Person): Promise<ClientSocket> {
    const socket: ClientSocket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: who.browser.cookies, origin: PUBLIC_URL },
    });
    return new Promise((resolve, reject) => {
      socket.once('realtime:ready', ({ signedIn }) => (signedIn ? resolve(socket) : reject(new Error('socket not signed in'))));
      socket.once('connect_error', reject);
    });
  }

  describe('who may call', () => {
    it.each([
      ['GET', '/api/messages/conversations'],
      ['POST', '/api/messages/conversations'],
      ['POST', '/api/messages/send'],
      ['GET', '/api/messages/unread/00000000-0000-4000-8000-000000000000'],
      ['PUT', '/api/messages/read/00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/messages/booking-requests'],
      ['GET', '/api/messages/blocks'],
    ] as const)('a visitor gets "Please sign in to send messages." from %s %s', async (method, path) => {
      const response = await new Browser(t).call(method, path, method === 'GET' ? undefined : {});
      expect(response.statusCode).toBe(401);
      expect(response.json<{ error: string }>().error).toBe(MESSAGING_TEXTS.signIn);
    });

    it('needs a confirmed e-mail address to start a conversation', async () => {
      const [buyer, seller] = await Promise.all([person(), person()]);
      const listingId = await listingOf(seller);
      await db.query('update app_user set email_verified_at = null where id = $1', [buyer.id]);
      const response = await buyer.browser.call('POST', '/api/messages/conversations', { listingId });
      expect(response.statusCode).toBe(403);
      expect(await db.query('select id from conversation where starter_id = $1', [buyer.id])).toHaveLength(0);
    });
  });

  describe('conversations', () => {
    it('creates one conversation per buyer, seller and listing, titled after the listing, and gets it again', async () => {
      const { buyer, seller, listingId, conversation } = await pair();
      expect(conversation).toMatchObject({
        title: 'Kverneland plough, 4 furrow',
        listing: { id: listingId, title: 'Kverneland plough, 4 furrow', status: 'live', is_owner: false },
        other_participant: { id: seller.id, name: seller.person.name, exists: true },
        last_message: null,
        unread_count: 0,
      });
      expect((await startConversation(buyer, listingId)).id).toBe(conversation.id);
      expect(await db.query('select id from conversation where starter_id = $1', [buyer.id])).toHaveLength(1);
    });

    it('refuses your own listing with the spec’s text, and a missing listing with a 404', async () => {
      const seller = await person();
      const listingId = await listingOf(seller);
      const own = await seller.browser.call('POST', '/api/messages/conversations', { listingId });
      expect(own.statusCode).toBe(400);
      expect(own.json<{ error: string }>().error).toBe('You cannot send a message to yourself.');
      const missing = await seller.browser.call('POST', '/api/messages/conversations', {
        listingId: '00000000-0000-4000-8000-000000000000',
      });
      expect(missing.statusCode).toBe(404);
      const malformed = await seller.browser.call('POST', '/api/messages/conversations', { listingId: 'nope' });
      expect(malformed.statusCode).toBe(400);
    });

    it('keeps the listing’s id and title after the listing is deleted', async () => {
      const { buyer, listingId, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Is it still available?');
      await db.query('delete from listing where id = $1', [listingId]);
      const [found] = await list(buyer);
      expect(found).toMatchObject({
        id: conversation.id,
        listing: { id: listingId, title: 'Kverneland plough, 4 furrow', status: 'deleted' },
      });
    });
  });

  describe('sending', () => {
    it.each([
      ['empty', '', MESSAGING_TEXTS.empty],
      ['blank', '   \n  ', MESSAGING_TEXTS.empty],
      ['too long', 'x'.repeat(MESSAGE_MAX_LENGTH + 1), MESSAGING_TEXTS.tooLong],
      ['with control characters', 'hello\u0007there', MESSAGING_TEXTS.controlCharacters],
    ])('refuses a message that is %s with its text and stores nothing', async (_case, content, text) => {
      const { buyer, conversation } = await pair();
      const response = await buyer.browser.call('POST', '/api/messages/send', { conversationId: conversation.id, content });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: text, fields: { content: text } });
      expect(await db.query('select id from message where conversation_id = $1', [conversation.id])).toHaveLength(0);
    });

    it('tells the recipient with a New Message notification: who wrote, the first 50 characters, a link to the chat', async () => {
      const seller = await person();
      const buyer = await signedInPerson(t, newPerson('Bill Buyer'));
      const conversation = await startConversation(buyer, await listingOf(seller));
      const text = 'Is the plough still available? I could collect it on Saturday morning with a trailer.';
      await sendMessage(buyer, conversation.id, text);
      await eventually(async () => {
        const notifications = (await seller.browser.call('GET', '/api/notifications')).json<{
          data: { notifications: Array<{ title: string; message: string; action_url: string | null }> };
        }>().data.notifications;
        expect(notifications).toEqual([
          expect.objectContaining({
            title: 'New Message',
            message: `Bill Buyer: ${text.slice(0, 50)}...`,
            action_url: `/messages?conversation=${conversation.id}`,
          }),
        ]);
      });
      const own = (await buyer.browser.call('GET', '/api/notifications')).json<{ data: { notifications: unknown[] } }>().data;
      expect(own.notifications).toEqual([]);
    });

    it('stores the trimmed text and shows it as the last message to both sides', async () => {
      const { buyer, seller, conversation } = await pair();
      const message = await sendMessage(buyer, conversation.id, '  Is it still available?\nThanks  ');
      expect(message).toMatchObject({
        content: 'Is it still available?\nThanks',
        sender_id: buyer.id,
        sender_name: buyer.person.name,
        read: false,
      });
      const [sellerSide] = await list(seller);
      expect(sellerSide).toMatchObject({
        id: conversation.id,
        other_participant: { id: buyer.id },
        last_message: { content: 'Is it still available?\nThanks', sender_id: buyer.id },
        unread_count: 1,
        listing: { is_owner: true },
      });
    });

    it(`allows ${SENDS_PER_MINUTE} messages a minute, then answers 429 with Retry-After`, async () => {
      const { buyer, conversation } = await pair();
      for (let i = 0; i < SENDS_PER_MINUTE; i++) await sendMessage(buyer, conversation.id, `Message ${i}`);
      const response = await buyer.browser.call('POST', '/api/messages/send', { conversationId: conversation.id, content: 'One more' });
      expect(response.statusCode).toBe(429);
      expect(response.json<{ error: string }>().error).toMatch(/^You are sending messages too quickly/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('pages a long chat newest page first, each page oldest to newest, with no gap or repeat', async () => {
      const { buyer, seller, conversation } = await pair();
      for (let i = 1; i <= 5; i++) await sendMessage(i % 2 ? buyer : seller, conversation.id, `Message ${i}`);
      const first = await page(buyer, conversation.id, '?limit=2');
      expect(first.messages.map((m) => m.content)).toEqual(['Message 4', 'Message 5']);
      const second = await page(buyer, conversation.id, `?limit=2&before=${first.next_cursor}`);
      expect(second.messages.map((m) => m.content)).toEqual(['Message 2', 'Message 3']);
      const third = await page(buyer, conversation.id, `?limit=2&before=${second.next_cursor}`);
      expect(third.messages.map((m) => m.content)).toEqual(['Message 1']);
      expect(third.next_cursor).toBeNull();
      const bad = await buyer.browser.call('GET', `/api/messages/conversations/${conversation.id}/messages?before=garbage!`);
      expect(bad.statusCode).toBe(400);
      // A cursor of the right shape whose time does not exist (PostgreSQL would have refused it with a 500).
      const forged = Buffer.from(JSON.stringify(['2026-02-30 10:00:00+00', conversation.id])).toString('base64url');
      const impossible = await buyer.browser.call('GET', `/api/messages/conversations/${conversation.id}/messages?before=${forged}`);
      expect([impossible.statusCode, impossible.json<{ error: string }>().error]).toEqual([
        400,
        'This page link is no longer valid. Start again from the first page.',
      ]);
    });
  });

  describe('read state and unread counts', () => {
    it('marks only the other party’s messages read, and counts unread per conversation and in total', async () => {
      const { buyer, seller, conversation } = await pair();
      const other = await pair();
      await sendMessage(buyer, conversation.id, 'Hello');
      await sendMessage(seller, conversation.id, 'Hi, yes it is');
      await sendMessage(seller, conversation.id, 'Come and see it');
      // The seller of the second pair is the buyer of the first: two conversations for one person.
      const listingId = await listingOf(other.seller);
      const second = await startConversation(buyer, listingId);
      await sendMessage(buyer, second.id, 'Yes, one');
      await sendMessage(other.seller, second.id, 'Go on');

      expect(await unread(buyer)).toEqual({
        total: 3,
        conversations: expect.arrayContaining([
          { conversation_id: conversation.id, count: 2 },
          { conversation_id: second.id, count: 1 },
        ]),
      });
      const marked = await buyer.browser.call('PUT', `/api/messages/read/${conversation.id}/${buyer.id}`);
      expect(marked.json()).toMatchObject({ data: { updated: 2 } });
      const messages = (await page(buyer, conversation.id)).messages;
      expect(messages.map((m) => [m.content, m.read])).toEqual([
        ['Hello', false],
        ['Hi, yes it is', true],
        ['Come and see it', true],
      ]);
      expect(await unread(buyer)).toEqual({ total: 1, conversations: [{ conversation_id: second.id, count: 1 }] });
      expect((await unread(seller)).total).toBe(1);
    });

    it('refuses another user’s id in the read and unread paths', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(seller, conversation.id, 'Hello');
      const read = await buyer.browser.call('PUT', `/api/messages/read/${conversation.id}/${seller.id}`);
      expect(read.statusCode).toBe(403);
      const counts = await buyer.browser.call('GET', `/api/messages/unread/${seller.id}`);
      expect(counts.statusCode).toBe(403);
      expect((await unread(buyer)).total).toBe(1);
    });
  });

  describe('another person’s conversation (IDOR)', () => {
    it('answers a third person 404 on every call about it, and changes nothing', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Private question');
      const intruder = await person();
      const id = conversation.id;
      const calls: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
        ['read messages', 'GET', `/api/messages/conversations/${id}/messages`],
        ['send', 'POST', '/api/messages/send', { conversationId: id, content: 'Hello from outside' }],
        ['mark read', 'PUT', `/api/messages/read/${id}/${intruder.id}`],
        ['delete', 'DELETE', `/api/messages/conversations/${id}`],
      ];
      for (const [what, method, path, body] of calls) {
        const response = await intruder.browser.call(method, path, body);
        expect([what, response.statusCode]).toEqual([what, 404]);
      }
      expect(await list(intruder)).toEqual([]);
      expect((await page(buyer, id)).messages.map((m) => [m.content, m.read])).toEqual([['Private question', false]]);
      expect((await list(seller)).map((c) => c.id)).toEqual([id]);
      expect((await list(buyer)).map((c) => c.id)).toEqual([id]);
    });

    it('lets neither participant reach the other’s other conversations', async () => {
      const first = await pair();
      const second = await pair();
      await sendMessage(second.buyer, second.conversation.id, 'Between us');
      for (const who of [first.buyer, first.seller]) {
        expect((await who.browser.call('GET', `/api/messages/conversations/${second.conversation.id}/messages`)).statusCode).toBe(404);
        const sent = await who.browser.call('POST', '/api/messages/send', { conversationId: second.conversation.id, content: 'x' });
        expect(sent.statusCode).toBe(404);
      }
    });
  });

  describe('deleting a conversation', () => {
    it('hides it for the deleting user only; a new message brings it back without the old ones', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(seller, conversation.id, 'Before');
      const deleted = await buyer.browser.call('DELETE', `/api/messages/conversations/${conversation.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(await list(buyer)).toEqual([]);
      expect((await unread(buyer)).total).toBe(0);
      expect((await list(seller)).map((c) => c.id)).toEqual([conversation.id]);
      expect((await page(seller, conversation.id)).messages.map((m) => m.content)).toEqual(['Before']);

      await sendMessage(seller, conversation.id, 'After');
      const [back] = await list(buyer);
      expect(back).toMatchObject({ id: conversation.id, unread_count: 1, last_message: { content: 'After' } });
      expect((await page(buyer, conversation.id)).messages.map((m) => m.content)).toEqual(['After']);
    });
  });

  describe('the conversation list, page by page', () => {
    /** A seller asked about five listings by five people, the oldest conversation first. */
    const busySeller = async () => {
      const seller = await person();
      const buyers = await Promise.all(
        ['Alan Ash', 'Beth Birch', 'Carl Cedar', 'Dina Damson', 'Ed Elm'].map((n) => signedInPerson(t, newPerson(n))),
      );
      const ids: string[] = [];
      for (const [i, buyer] of buyers.entries()) {
        const conversation = await startConversation(buyer, await listingOf(seller, { title: `Tractor number ${i}` }));
        await db.query('update conversation set updated_at = $2 where id = $1', [
          conversation.id,
          new Date(Date.now() - (10 - i) * 60_000),
        ]);
        ids.push(conversation.id);
      }
      return { seller, buyers, newestFirst: ids.reverse() };
    };
    const allPages = async (who: Person, query: string) => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const next: { conversations: Conversation[]; next_cursor: string | null } = await listPage(
          who,
          `?${query}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        pages.push(next.conversations.map((c) => c.id));
        cursor = next.next_cursor;
      } while (cursor && pages.length < 10);
      return pages;
    };

    it('reaches the oldest conversation through pages of the asked size, newest first, none twice', async () => {
      const { seller, newestFirst } = await busySeller();
      const pages = await allPages(seller, 'limit=2');
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(newestFirst);
      expect((await listPage(seller)).conversations.map((c) => c.id)).toEqual(newestFirst);
      // One on a later page opens on its own (a link to it); someone else's is not found.
      const oldest = await seller.browser.call('GET', `/api/messages/conversations/${newestFirst.at(-1)}`);
      expect(oldest.json()).toMatchObject({ data: { id: newestFirst.at(-1), title: 'Tractor number 0' } });
      expect((await (await person()).browser.call('GET', `/api/messages/conversations/${newestFirst.at(-1)}`)).statusCode).toBe(404);
      expect((await seller.browser.call('GET', '/api/messages/conversations/not-an-id')).statusCode).toBe(404);
    });

    it('searches every conversation on the server by the other person’s name or the listing’s title, in any case', async () => {
      const { seller, buyers, newestFirst } = await busySeller();
      const oldest = newestFirst.at(-1);
      const byName = await listPage(seller, `?limit=2&q=${encodeURIComponent('alan ASH')}`);
      expect(byName).toEqual({
        conversations: [expect.objectContaining({ id: oldest, other_participant: expect.objectContaining({ id: buyers[0]?.id }) })],
        next_cursor: null,
      });
      const byTitle = await listPage(seller, `?limit=2&q=${encodeURIComponent('NUMBER 0')}`);
      expect(byTitle.conversations.map((c) => c.id)).toEqual([oldest]);
      expect((await allPages(seller, `limit=2&q=tractor`)).flat()).toEqual(newestFirst);
      await sendMessage(buyers[1] as Person, newestFirst[3] as string, 'Is the loader included?');
      expect((await listPage(seller, '?q=LOADER')).conversations.map((c) => c.id)).toEqual([newestFirst[3]]);
      // The bell asks for those waiting to be read, wherever they are in the list.
      expect((await listPage(seller, '?only=unread&limit=1')).conversations.map((c) => c.id)).toEqual([newestFirst[3]]);
      // Wildcards are only characters.
      expect((await listPage(seller, `?q=${encodeURIComponent('%')}`)).conversations).toEqual([]);
      expect((await listPage(seller, `?q=${encodeURIComponent('Tractor_number')}`)).conversations).toEqual([]);
      // Another person's conversations never match.
      expect((await listPage(await person(), '?q=tractor')).conversations).toEqual([]);
    });

    it.each([
      ['?limit=0', 'limit must be a whole number from 1 to 100'],
      ['?limit=101', 'limit must be a whole number from 1 to 100'],
      ['?limit=two', 'limit must be a whole number from 1 to 100'],
      [`?q=${'a'.repeat(101)}`, MESSAGING_TEXTS.searchTooLong],
      ['?only=read', 'only must be unread'],
      ['?cursor=not-a-cursor', INVALID_CURSOR_MESSAGE],
      [`?cursor=${Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000Z', 'x'])).toString('base64url')}`, INVALID_CURSOR_MESSAGE],
    ])('answers %s with 400 and says why', async (query, text) => {
      const response = await (await person()).browser.call('GET', `/api/messages/conversations${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(text);
    });
  });

  describe('blocking', () => {
    /** The status and error of `call` made while `blocker` blocks `blocked` (unblocked again after). */
    const whileBlocking = async (blocker: Person, blocked: Person, call: () => ReturnType<Browser['call']>) => {
      await blocker.browser.call('POST', '/api/messages/blocks', { userId: blocked.id });
      const response = await call();
      await blocker.browser.call('DELETE', `/api/messages/blocks/${blocked.id}`);
      return [response.statusCode, response.json<{ error: string }>().error];
    };

    it('stops a blocked user starting or continuing a conversation with the blocker, until unblocked', async () => {
      const { buyer, seller, conversation } = await pair();
      const blocked = await seller.browser.call('POST', '/api/messages/blocks', { userId: buyer.id });
      expect(blocked.statusCode).toBe(200);
      expect((await seller.browser.call('GET', '/api/messages/blocks')).json()).toMatchObject({
        data: [{ user_id: buyer.id, name: buyer.person.name }],
      });
      expect((await list(seller))[0]).toMatchObject({ blocked: true });

      const cont = await buyer.browser.call('POST', '/api/messages/send', { conversationId: conversation.id, content: 'Hello?' });
      expect(cont.statusCode).toBe(403);
      expect(cont.json<{ error: string }>().error).toBe(MESSAGING_TEXTS.blockedByThem);
      const another = await listingOf(seller, { title: 'Round baler' });
      const fresh = await buyer.browser.call('POST', '/api/messages/conversations', { listingId: another });
      expect(fresh.statusCode).toBe(403);
      expect(fresh.json<{ error: string }>().error).toBe(MESSAGING_TEXTS.blockedByThem);
      const reply = await seller.browser.call('POST', '/api/messages/send', { conversationId: conversation.id, content: 'Go away' });
      expect(reply.statusCode).toBe(403);
      expect(reply.json<{ error: string }>().error).toBe(MESSAGING_TEXTS.blockedByYou);
      expect(await db.query('select id from message where conversation_id = $1', [conversation.id])).toHaveLength(0);

      expect((await seller.browser.call('DELETE', `/api/messages/blocks/${buyer.id}`)).statusCode).toBe(200);
      await sendMessage(buyer, conversation.id, 'Hello again');
      expect((await seller.browser.call('GET', '/api/messages/blocks')).json()).toMatchObject({ data: [] });
    });

    it('refuses a booking request in an existing conversation while either of them blocks the other', async () => {
      const [renter, owner] = await Promise.all([person(), person()]);
      const listingId = await rentalOf(owner);
      const conversation = await startConversation(renter, listingId);
      const book = () => renter.browser.call('POST', '/api/messages/booking-requests', { listingId, from: day(3), to: day(5) });
      expect(await whileBlocking(owner, renter, book)).toEqual([403, MESSAGING_TEXTS.blockedByThem]);
      expect(await whileBlocking(renter, owner, book)).toEqual([403, MESSAGING_TEXTS.blockedByYou]);
      expect(await db.query('select id from message where conversation_id = $1', [conversation.id])).toHaveLength(0);
      expect((await page(owner, conversation.id)).messages).toEqual([]);
    });

    it('refuses answering a booking request while either of them blocks the other; it stays pending', async () => {
      const [renter, owner] = await Promise.all([person(), person()]);
      const listingId = await rentalOf(owner);
      const { conversation_id, message } = await requestBooking(renter, listingId, { from: day(3), to: day(5) });
      const decide = () => owner.browser.call('PUT', `/api/messages/booking-requests/${message.id}`, { decision: 'accepted' });
      expect(await whileBlocking(owner, renter, decide)).toEqual([403, MESSAGING_TEXTS.blockedByYou]);
      expect(await whileBlocking(renter, owner, decide)).toEqual([403, MESSAGING_TEXTS.blockedByThem]);
      expect((await page(renter, conversation_id)).messages[0]?.booking).toMatchObject({ status: 'pending' });
    });

    it('refuses blocking yourself or someone who does not exist', async () => {
      const someone = await person();
      expect((await someone.browser.call('POST', '/api/messages/blocks', { userId: someone.id })).statusCode).toBe(400);
      const missing = await someone.browser.call('POST', '/api/messages/blocks', { userId: '00000000-0000-4000-8000-000000000000' });
      expect(missing.statusCode).toBe(404);
    });
  });

  describe('booking requests', () => {
    const request = (who: Person, body: Record<string, unknown>) => who.browser.call('POST', '/api/messages/booking-requests', body);

    it.each([
      ['the end before the start', { from: day(5), to: day(3) }, 'to', 'The end date must be on or after the start date.'],
      ['the past', { from: day(-3), to: day(2) }, 'from', 'The dates must not be in the past.'],
      ['outside the availability', { from: day(1), to: day(40) }, 'from', `The dates must be within the listing's availability from`],
      ['no dates', { from: '', to: '' }, 'from', 'Please choose the dates you want (from and to).'],
      ['a date that does not exist', { from: '2027-02-30', to: '2027-03-01' }, 'from', 'Dates must be real dates (YYYY-MM-DD).'],
    ])('refuses %s', async (_case, dates, field, text) => {
      const [renter, owner] = await Promise.all([person(), person()]);
      const listingId = await rentalOf(owner, { available_from: day(0), available_to: day(30) });
      const response = await request(renter, { listingId, ...dates });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field]).toContain(text);
      expect(await db.query('select id from message where sender_id = $1', [renter.id])).toHaveLength(0);
    });

    it('refuses a listing for sale, a rental already let, and your own rental', async () => {
      const [renter, owner] = await Promise.all([person(), person()]);
      const forSale = await request(renter, { listingId: await listingOf(owner), from: day(1), to: day(2) });
      expect(forSale.statusCode).toBe(400);
      expect(forSale.json<{ error: string }>().error).toBe('Only rental listings can be booked.');
      const alreadyLet = await rentalOf(owner);
      await db.query(`update listing set status = 'let' where id = $1`, [alreadyLet]);
      const gone = await request(renter, { listingId: alreadyLet, from: day(1), to: day(2) });
      expect(gone.json()).toMatchObject({ error: 'This rental is no longer available to book.' });
      const own = await request(owner, { listingId: await rentalOf(owner), from: day(1), to: day(2) });
      expect(own.statusCode).toBe(400);
      expect(own.json<{ error: string }>().error).toBe('You cannot book your own listing.');
    });

    it('arrives as a pending request the owner accepts once, live on both sides', async () => {
      const [renter, owner] = await Promise.all([person(), person()]);
      const listingId = await rentalOf(owner, { available_from: day(0), available_to: day(60) });
      const [renterSocket, ownerSocket] = await Promise.all([connect(renter), connect(owner)]);
      try {
        const arrived = new Promise<Message>((resolve) =>
          ownerSocket.once('NEW_MESSAGE', (event) => resolve(event.data.message as Message)),
        );
        const response = await request(renter, { listingId, from: day(7), to: day(14), note: 'For 40 ewes' });
        expect(response.statusCode).toBe(201);
        const { conversation_id, message } = response.json<{ data: { conversation_id: string; message: Message } }>().data;
        expect(message).toMatchObject({
          kind: 'booking-request',
          booking: { from: day(7), to: day(14), status: 'pending', listing_id: listingId },
        });
        // Its text (previews, notifications, e-mails) gives the dates as the product writes dates: "3 Mar 2027".
        const gb = (offset: number) =>
          new Date(`${day(offset)}T00:00:00Z`).toLocaleDateString('en-GB', {
            day: 'numeric',
            month: 'short',
            year: 'numeric',
            timeZone: 'UTC',
          });
        expect(message.content).toBe(`Booking request: ${gb(7)} to ${gb(14)}\nFor 40 ewes`);
        expect(message.content).toMatch(/^Booking request: \d{1,2} [A-Z][a-z]{2} \d{4} to /);
        expect((await arrived).id).toBe(message.id);

        const byRenter = await renter.browser.call('PUT', `/api/messages/booking-requests/${message.id}`, { decision: 'accepted' });
        expect(byRenter.statusCode).toBe(403);
        const intruder = await person();
        const byIntruder = await intruder.browser.call('PUT', `/api/messages/booking-requests/${message.id}`, { decision: 'accepted' });
        expect(byIntruder.statusCode).toBe(404);

        const updated = new Promise<Message>((resolve) =>
          renterSocket.once('BOOKING_UPDATED', (event) => resolve(event.data.message as Message)),
        );
        const accepted = await owner.browser.call('PUT', `/api/messages/booking-requests/${message.id}`, { decision: 'accepted' });
        expect(accepted.statusCode).toBe(200);
        expect((await updated).booking).toMatchObject({ status: 'accepted' });
        const again = await owner.browser.call('PUT', `/api/messages/booking-requests/${message.id}`, { decision: 'declined' });
        expect(again.statusCode).toBe(409);
        const [stored] = (await page(renter, conversation_id)).messages;
        expect(stored?.booking).toMatchObject({ status: 'accepted' });
      } finally {
        renterSocket.close();
        ownerSocket.close();
      }
    });
    it('quotes 40 acres of grazing per acre per season with VAT to both sides, keeps it once accepted, and blocks the dates taken', async () => {
      const [renter, other, owner] = await Promise.all([person(), person(), person()]);
      const listingId = await insertListing(db, {
        seller: owner.id,
        title: 'Summer grazing, 40 acres',
        type: 'rent',
        category: 6,
        rentSubcategory: 'land',
        pricePence: 2_500,
        priceUnit: 'per-acre-season',
        vat: 'plus-vat',
        attributes: { acres: 40 },
      });
      const dates = { listingId, from: day(10), to: day(100) };
      const noAcres = await request(renter, dates);
      expect(noAcres.json()).toMatchObject({ fields: { quantity: 'Enter how many acres you want (the price is per acre).' } });
      const tooMany = await request(renter, { ...dates, quantity: 50 });
      expect(tooMany.json()).toMatchObject({ fields: { quantity: 'You asked for 50 acres; the listing has 40.' } });

      const asked = await requestBooking(renter, listingId, { from: dates.from, to: dates.to, quantity: 40 });
      const quote = {
        quantity: 40,
        basis: '40 acres × 1 season × £25.00 per acre per season',
        subtotal_pence: 100_000,
        vat_pence: 20_000,
        total_pence: 120_000,
      };
      expect(asked.message.booking?.quote).toMatchObject(quote);
      // Someone else asks for the same days while the first request waits.
      const rival = await requestBooking(other, listingId, { from: day(50), to: day(60), quantity: 10 });
      const [onOwnersSide] = (await page(owner, asked.conversation_id)).messages;
      expect(onOwnersSide?.booking?.quote).toMatchObject(quote);

      await db.query('update listing set price_pence = 3000 where id = $1', [listingId]);
      await decideBooking(owner, asked.message.id, 'accepted');
      expect((await page(renter, asked.conversation_id)).messages[0]?.booking).toMatchObject({ status: 'accepted', quote });

      const taken = `Those dates are already booked (${bookingDay(dates.from)} to ${bookingDay(dates.to)}). Choose other dates.`;
      const overlapping = await request(other, { listingId, from: day(100), to: day(110), quantity: 5 });
      expect(overlapping.json()).toMatchObject({ fields: { from: taken } });
      const acceptRival = await owner.browser.call('PUT', `/api/messages/booking-requests/${rival.message.id}`, { decision: 'accepted' });
      expect(acceptRival.statusCode).toBe(400);
      expect(acceptRival.json()).toMatchObject({ fields: { from: taken } });
      const booked = await other.browser.call('GET', `/api/messages/booked-dates/${listingId}`);
      expect(booked.json()).toEqual({ success: true, data: [{ from: dates.from, to: dates.to }] });
      expect((await request(other, { listingId, from: day(101), to: day(110), quantity: 5 })).statusCode).toBe(201);
    });
  });

  describe('live delivery', () => {
    it('pushes a new message to the recipient, and read ticks back to the sender', async () => {
      const { buyer, seller, conversation } = await pair();
      const [buyerSocket, sellerSocket] = await Promise.all([connect(buyer), connect(seller)]);
      try {
        const arrived = new Promise<Message>((resolve) =>
          sellerSocket.once('NEW_MESSAGE', (event) => resolve(event.data.message as Message)),
        );
        const sent = await sendMessage(buyer, conversation.id, 'Live hello');
        expect(await arrived).toEqual(sent);
        const read = new Promise<string[]>((resolve) => buyerSocket.once('MESSAGES_READ', (event) => resolve(event.data.message_ids)));
        await seller.browser.call('PUT', `/api/messages/read/${conversation.id}/${seller.id}`);
        expect(await read).toEqual([sent.id]);
      } finally {
        buyerSocket.close();
        sellerSocket.close();
      }
    });
  });

  describe('the safety notice', () => {
    it('flags bank details, a payment link or a move off the platform for the recipient only, live and in the chat; the message is delivered', async () => {
      const { buyer, seller, conversation } = await pair();
      const sellerSocket = await connect(seller);
      const buyerSocket = await connect(buyer);
      try {
        const arrived = new Promise<Message>((resolve) =>
          buyerSocket.once('NEW_MESSAGE', (event) => resolve(event.data.message as Message)),
        );
        const echoed = new Promise<Message>((resolve) =>
          sellerSocket.once('NEW_MESSAGE', (event) => resolve(event.data.message as Message)),
        );
        const risky = await sendMessage(seller, conversation.id, 'Deposit of £300 to sort code 20-45-77 account 41234567 holds them');
        expect(risky.safety_notice).toBe(false);
        expect((await arrived).safety_notice).toBe(true);
        expect((await echoed).safety_notice).toBe(false);
      } finally {
        sellerSocket.close();
        buyerSocket.close();
      }
      await sendMessage(seller, conversation.id, 'Or pay at paypal.me/farmerjoe');
      await sendMessage(seller, conversation.id, 'Easier on WhatsApp: 07700 900123');
      await sendMessage(seller, conversation.id, 'Ear tags UK 123456 700123, collect on 12-05-24, CPH 12/345/6789');
      const notices = async (who: Person) => (await page(who, conversation.id)).messages.map((m) => m.safety_notice);
      expect(await notices(buyer)).toEqual([true, true, true, false]);
      expect(await notices(seller)).toEqual([false, false, false, false]);
    });
  });

  describe('the unread e-mail', () => {
    const remind = () => t.app.get(MessagingLifecycle).remindUnread();
    const mailsTo = async (email: string) =>
      (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email && /unread message/.test(m.subject));
    const age = (conversationId: string, minutes: number) =>
      db.query(`update message set created_at = now() - make_interval(mins => $2) where conversation_id = $1`, [conversationId, minutes]);

    it('mails once about messages unread for 15 minutes, with a link to the conversation, however often the job runs', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Is the plough still for sale?');
      await remind();
      await waitForJobs(db);
      expect(await mailsTo(seller.person.email)).toHaveLength(0); // not 15 minutes yet
      await age(conversation.id, 16);
      await remind();
      await remind();
      await waitForJobs(db);
      const mails = await eventually(async () => {
        const found = await mailsTo(seller.person.email);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(mails[0]?.subject).toBe('An unread message about "Kverneland plough, 4 furrow"');
      expect(mails[0]?.text).toContain(`${PUBLIC_URL}/messages?conversation=${conversation.id}`);
      expect(mails[0]?.text).toContain('Is the plough still for sale?');

      // Another unread message within the hour: no second mail.
      await sendMessage(buyer, conversation.id, 'Hello?');
      await age(conversation.id, 20);
      await remind();
      await waitForJobs(db);
      expect(await mailsTo(seller.person.email)).toHaveLength(1);
    });

    it('mails nothing about a message already read', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Read me');
      await seller.browser.call('PUT', `/api/messages/read/${conversation.id}/${seller.id}`);
      await age(conversation.id, 30);
      await remind();
      await waitForJobs(db);
      expect(await mailsTo(seller.person.email)).toHaveLength(0);
    });

    it('honours the recipient’s e-mail notifications switch', async () => {
      const { buyer, seller, conversation } = await pair();
      await db.query('update app_user set email_notifications = false where id = $1', [seller.id]);
      await sendMessage(buyer, conversation.id, 'Quiet please');
      await age(conversation.id, 30);
      await remind();
      await waitForJobs(db);
      expect(await mailsTo(seller.person.email)).toHaveLength(0);
    });
  });

  describe('a deleted account', () => {
    it('leaves the other party the record of what was said and agreed, by "Deleted user", to read but not answer', async () => {
      const [renter, owner] = await Promise.all([signedInPerson(t, newPerson('Rhoda Renter')), person()]);
      await db.query(`update app_user set avatar_url = '/uploads/avatars/rhoda.webp', phone = '07700 900123' where id = $1`, [renter.id]);
      const listingId = await rentalOf(owner);
      const { conversation_id: conversationId, message: request } = await requestBooking(renter, listingId, {
        from: day(3),
        to: day(5),
        note: 'For 40 ewes',
      });
      await sendMessage(renter, conversationId, 'Gate code please');
      await decideBooking(owner, request.id, 'accepted');
      await sendMessage(owner, conversationId, 'It is 1234');
      await waitForJobs(db);

      const deleted = await renter.browser.call('DELETE', '/api/profile', { password: renter.person.password });
      expect(deleted.statusCode).toBe(200);
      await waitForJobs(db);

      const [kept] = await list(owner);
      expect(kept).toMatchObject({
        id: conversationId,
        other_participant: { name: MESSAGING_TEXTS.deletedUser, avatar_url: null, exists: false },
      });
      const { messages } = await page(owner, conversationId);
      expect(messages.map((m) => [m.sender_name, m.content])).toEqual([
        [MESSAGING_TEXTS.deletedUser, expect.stringContaining('For 40 ewes')],
        [MESSAGING_TEXTS.deletedUser, 'Gate code please'],
        [owner.person.name, 'It is 1234'],
      ]);
      expect(messages[0]).toMatchObject({
        kind: 'booking-request',
        sender_id: null,
        booking: { status: 'accepted', from: day(3), to: day(5) },
      });
      expect(messages[1]?.sender_id).toBeNull();

      // Nothing that was the renter's reaches the owner: not the name, e-mail, photo, phone nor id.
      const answers = await Promise.all(
        [
          '/api/messages/conversations',
          `/api/messages/conversations/${conversationId}/messages`,
          '/api/notifications',
          '/api/profile/export',
          `/api/messages/conversations?q=rhoda`,
        ].map((path) => owner.browser.call('GET', path)),
      );
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        for (const personal of ['Rhoda', renter.person.email, 'rhoda.webp', '07700 900123']) expect(answer.body).not.toContain(personal);
      }
      expect(answers[1]?.body).not.toContain(renter.id);
      expect((await listPage(owner, '?q=deleted')).conversations.map((c) => c.id)).toEqual([conversationId]);

      const reply = await owner.browser.call('POST', '/api/messages/send', { conversationId, content: 'Still there?' });
      expect([reply.statusCode, reply.json<{ error: string }>().error]).toEqual([403, MESSAGING_TEXTS.otherGone]);

      // Once the owner deletes it too, nobody keeps it: it goes with its messages.
      expect((await owner.browser.call('DELETE', `/api/messages/conversations/${conversationId}`)).statusCode).toBe(200);
      expect(await db.query('select id from message where conversation_id = $1', [conversationId])).toHaveLength(0);
      expect(await db.query('select id from conversation where id = $1', [conversationId])).toHaveLength(0);
    });

    it('takes a conversation away when both of its people have deleted their accounts', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Hello');
      for (const who of [buyer, seller]) {
        expect((await who.browser.call('DELETE', '/api/profile', { password: who.person.password })).statusCode).toBe(200);
      }
      await waitForJobs(db);
      expect(await db.query('select id from conversation where id = $1', [conversation.id])).toHaveLength(0);
      expect(await db.query('select id from message where conversation_id = $1', [conversation.id])).toHaveLength(0);
    });

    it('exports the user’s conversations and messages with their data', async () => {
      const { buyer, seller, conversation } = await pair();
      await sendMessage(buyer, conversation.id, 'Question');
      await sendMessage(seller, conversation.id, 'Answer');
      const exported = (await buyer.browser.call('GET', '/api/profile/export')).json<{ data: { conversations: unknown } }>().data;
      expect(exported.conversations).toEqual([
        expect.objectContaining({
          id: conversation.id,
          title: 'Kverneland plough, 4 furrow',
          other_participant: { id: seller.id, name: seller.person.name },
          messages: [
            expect.objectContaining({ from_you: true, content: 'Question' }),
            expect.objectContaining({ from_you: false, content: 'Answer' }),
          ],
        }),
      ]);
    });
  });
});
