import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { decodeTypedCursor, encodeCursor, findKeysetPage } from '../../common/keyset-pagination.js';
import { FieldValidationException } from '../../common/errors.js';
import { type BookingQuote, bookingQuantityUnit, bookingQuote } from '../../contracts/booking-quote.js';
import { todayInUk } from '../../contracts/listings.js';
import {
  BOOKING_TEXTS,
  type BookingDecision,
  bookingRequestText,
  type BookingDetails,
  CONVERSATION_PAGE_SIZE,
  MESSAGE_PAGE_SIZE,
  MESSAGING_TEXTS,
  NEW_CONVERSATIONS_PER_HOUR,
  SENDS_PER_MINUTE,
} from '../../contracts/messaging.js';
import type { ServerEvent, ServerEventPayload } from '../../infra/realtime/realtime.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter, waitText } from '../../infra/rate-limit/rate-limiter.js';
import { type ListingBrief, ListingsService } from '../listings/listings.service.js';
import { User } from '../users/user.entity.js';
import { UserBlock } from './block.entity.js';
import { Conversation, otherParticipant, participantName, type Side, sideOf } from './conversation.entity.js';
import type { BookingRequestRequest, ConversationPageQuery } from './dto/messaging.request.js';
import type {
  BlockedUserView,
  BookedDatesView,
  BookingRequestResult,
  ConversationPage,
  ConversationView,
  MarkReadResult,
  MessagePage,
  MessageView,
  UnreadCounts,
} from './dto/messaging.response.js';
import { Message } from './message.entity.js';
import { needsSafetyNotice } from '../../contracts/message-safety.js';
import { isUuid } from '../../common/uuid.js';

/** A deleted account's id is not shown either: nothing links the record back to the person. */
const authorId = (id: string, author: User | undefined) => (author?.deletedAt ? null : id);

/** `like` pattern matching `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface ConversationRow {
  id: string;
  title: string;
  listing_id: string | null;
  starter_id: string;
  owner_id: string;
  updated_at: Date;
  last_content: string | null;
  last_sender_id: string | null;
  last_created_at: Date | null;
  unread: number;
}

/**
 * Conversations between two people about a listing, their messages, read state, blocks and
 * booking requests (SPEC §2 "Messages", §4 "Messages", §5 "Messaging"). Every query is scoped to
 * the caller's own conversations, so another person's id answers like a missing one (404).
 */
@Injectable()
export class MessagingService {
  private readonly logger = new Logger('Messaging');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(Realtime) private readonly realtime: Realtime,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(ListingsService) private readonly listings: ListingsService,
  ) {}

  // ----- Conversations -----

  /**
   * One page of the caller's conversations, newest activity first, without those they deleted;
   * with `q`, only those whose other party's name, listing title or last message contains it; with
   * `only: 'unread'`, only those with messages waiting for the caller.
   */
  async conversations(userId: string, query: ConversationPageQuery = {}): Promise<ConversationPage> {
    const limit = query.limit ?? CONVERSATION_PAGE_SIZE;
    const where = ['((c.starter_id = ? and c.starter_hidden_at is null) or (c.owner_id = ? and c.owner_hidden_at is null))'];
    const params: unknown[] = [userId, userId];
    if (query.cursor) {
      where.push('(c.updated_at, c.id) < (?::timestamptz, ?::uuid)');
      params.push(...decodeTypedCursor(query.cursor, ['timestamptz', 'uuid']));
    }
    if (query.only === 'unread') {
      where.push('exists (select 1 from message u where u.conversation_id = c.id and u.recipient_id = ? and u.read_at is null)');
      params.push(userId);
    }
    const search = query.q?.trim();
    if (search) {
      where.push(
        `(c.title ilike ? or last.content ilike ? or (case when other.deleted_at is null then other.full_name else ? end) ilike ?)`,
      );
      params.push(containing(search), containing(search), MESSAGING_TEXTS.deletedUser, containing(search));
    }
    const rows = await this.conversationRows(userId, where.join(' and '), params, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      conversations: await this.views(userId, shown),
      next_cursor: rows.length > limit && last ? encodeCursor([new Date(last.updated_at), last.id]) : null,
    };
  }

  /** One of the caller's conversations as the list shows it (one on a later page, opened from a link). */
  conversation(userId: string, conversationId: string): Promise<ConversationView> {
    if (!isUuid(conversationId)) throw new NotFoundException(MESSAGING_TEXTS.conversationNotFound);
    return this.viewOf(userId, conversationId);
  }

  /** Create-or-get the caller's conversation with the owner of `listingId` about it. */
  async start(user: User, listingId: string): Promise<ConversationView> {
    const listing = await this.listingOrFail(listingId);
    if (listing.sellerId === user.id) throw new BadRequestException(MESSAGING_TEXTS.ownListing);
    const conversation = await this.conversationFor(user.id, listing);
    return this.viewOf(user.id, conversation.id);
  }

  async deleteConversation(userId: string, conversationId: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      const conversation = await this.ownConversation(tx, userId, conversationId);
      const other = await tx.findOne(User, { id: otherParticipant(conversation, userId) });
      // The record kept from a deleted account was kept for this user alone: it goes when they let it go.
      if (!other || other.deletedAt) {
        await tx.nativeDelete(Conversation, { id: conversation.id });
        return;
      }
      const side = sideOf(conversation, userId) as Side;
      const now = new Date();
      conversation[`${side}HiddenAt`] = now;
      conversation[`${side}ClearedAt`] = now;
      // What they deleted is no longer waiting to be read (nor e-mailed about).
      await tx.nativeUpdate(Message, { conversation: conversation.id, recipient: userId, readAt: null }, { readAt: now });
    });
  }

  // ----- Messages -----

  /** One page of a conversation, newest page first; each page oldest to newest. */
  async messages(userId: string, conversationId: string, before?: string, limit = MESSAGE_PAGE_SIZE): Promise<MessagePage> {
    const em = this.em.fork();
    const conversation = await this.ownConversation(em, userId, conversationId);
    const cleared = conversation[`${sideOf(conversation, userId) as Side}ClearedAt`];
    const page = await findKeysetPage(
      em,
      Message,
      { conversation: conversation.id, ...(cleared ? { createdAt: { $gt: cleared } } : {}) },
      {
        sort: [
          { field: 'createdAt', direction: 'desc', type: 'timestamptz' },
          { field: 'id', direction: 'desc', type: 'uuid' },
        ],
        limit,
        cursor: before,
      },
    );
    return { messages: await this.messageViews(userId, page.items.reverse()), next_cursor: page.nextCursor };
  }

  /** Stores the message (acknowledged only once committed), then tells both sides' open pages. */
  async send(user: User, conversationId: string, content: string): Promise<MessageView> {
    await this.limits.consume(
      { key: `messages:send:user:${user.id}`, limit: SENDS_PER_MINUTE, windowSeconds: 60 },
      (wait) => `You are sending messages too quickly. Please wait ${waitText(wait)} and try again.`,
    );
    const { message, conversation } = await this.em.transactional(async (tx) => {
      const conversation = await this.ownConversation(tx, user.id, conversationId, true);
      const recipient = otherParticipant(conversation, user.id);
      await this.checkMayMessage(tx, user.id, recipient);
      const message = this.store(tx, conversation, user.id, { content });
      return { message, conversation };
    });
    this.pushNewMessage(message, user, conversation);
    return this.messageView(message, user, user.id);
  }

  /** Marks the other party's messages read (never the caller's own: SPEC §6) and tells both sides. */
  async markRead(userId: string, conversationId: string): Promise<MarkReadResult> {
    const conversation = await this.ownConversation(this.em.fork(), userId, conversationId);
    const readAt = new Date();
    const rows = await this.em
      .getConnection()
      .execute<Array<{ id: string }>>(
        `update message set read_at = ? where conversation_id = ? and recipient_id = ? and read_at is null returning id`,
        [readAt, conversation.id, userId],
      );
    if (rows.length > 0) {
      const payload = {
        type: 'MESSAGES_READ' as const,
        data: { conversation_id: conversation.id, reader_id: userId, message_ids: rows.map((r) => r.id), read_at: readAt.toISOString() },
        timestamp: readAt.toISOString(),
      };
      this.push(otherParticipant(conversation, userId), 'MESSAGES_READ', payload);
      this.push(userId, 'MESSAGES_READ', payload);
    }
    return { updated: rows.length };
  }

  async unread(userId: string): Promise<UnreadCounts> {
    const rows = await this.em.getConnection().execute<Array<{ conversation_id: string; count: number }>>(
      `select m.conversation_id, count(*)::int as count from message m join conversation c on c.id = m.conversation_id
        where m.recipient_id = ? and m.read_at is null
          and ((c.starter_id = ? and c.starter_hidden_at is null) or (c.owner_id = ? and c.owner_hidden_at is null))
        group by m.conversation_id order by m.conversation_id`,
      [userId, userId, userId],
    );
    return { total: rows.reduce((sum, row) => sum + row.count, 0), conversations: rows };
  }

  // ----- Booking requests -----

  async requestBooking(user: User, request: BookingRequestRequest): Promise<BookingRequestResult> {
    const listing = await this.listingOrFail(request.listingId);
    if (listing.type !== 'rent') throw new BadRequestException(BOOKING_TEXTS.notRental);
    if (listing.status !== 'live') throw new BadRequestException(BOOKING_TEXTS.notLive);
    if (listing.sellerId === user.id) throw new BadRequestException(BOOKING_TEXTS.ownListing);
    checkBookingDates(request.from, request.to, listing.attributes);
    const quote = quoteFor(listing, request);
    const conversation = await this.conversationFor(user.id, listing);
    const message = await this.em.transactional(async (tx) => {
      const locked = await this.ownConversation(tx, user.id, conversation.id, true);
      await this.checkMayMessage(tx, user.id, listing.sellerId);
      await this.checkDatesFree(tx, listing.id, request.from, request.to);
      const note = request.note?.trim() || null;
      const booking: BookingDetails = {
        from: request.from,
        to: request.to,
        status: 'pending',
        note,
        listing_id: listing.id,
        decided_at: null,
        quote,
      };
      const content = bookingRequestText(request.from, request.to, note);
      return this.store(tx, locked, user.id, { content, kind: 'booking-request', booking });
    });
    this.pushNewMessage(message, user, conversation);
    return { conversation_id: conversation.id, message: this.messageView(message, user, user.id) };
  }

  /** The listing's owner accepts or declines a pending request, once; both sides' cards change. */
  async decideBooking(user: User, messageId: string, decision: BookingDecision): Promise<MessageView> {
    const { message, conversation } = await this.em.transactional(async (tx) => {
      const message = isUuid(messageId) ? await tx.findOne(Message, { id: messageId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
      const conversation = message ? await tx.findOne(Conversation, { id: message.conversation }) : null;
      if (!message || !conversation || !sideOf(conversation, user.id)) throw new NotFoundException('Message not found');
      if (message.kind !== 'booking-request' || !message.booking) throw new BadRequestException(BOOKING_TEXTS.notBooking);
      if (conversation.owner !== user.id || message.sender === user.id) throw new ForbiddenException(BOOKING_TEXTS.notOwner);
      if (message.booking.status !== 'pending') throw new ConflictException(BOOKING_TEXTS.alreadyDecided);
      // An answer reaches the requester (their card, a notification): the same rule as a message.
      await this.checkMayMessage(tx, user.id, message.sender);
      if (decision === 'accepted' && message.booking.listing_id) {
        await this.checkDatesFree(tx, message.booking.listing_id, message.booking.from, message.booking.to);
      }
      message.booking = { ...message.booking, status: decision, decided_at: new Date().toISOString() };
      this.events.publish(tx, 'booking.decided', {
        messageId: message.id,
        conversationId: conversation.id,
        requesterId: message.sender,
        decision,
      });
      return { message, conversation };
    });
    const timestamp = new Date().toISOString();
    for (const side of [conversation.starter, conversation.owner]) {
      const [view] = await this.messageViews(side, [message]);
      this.push(side, 'BOOKING_UPDATED', { type: 'BOOKING_UPDATED', data: { message: view! }, timestamp });
    }
    return (await this.messageViews(user.id, [message]))[0]!;
  }

  /** The days a rental's accepted bookings hold, soonest first, from today on: what a requester cannot book. */
  async bookedDates(listingId: string): Promise<BookedDatesView[]> {
    await this.listingOrFail(listingId);
    return this.acceptedBookings(this.em.fork(), listingId, todayInUk());
  }

  private async acceptedBookings(em: EntityManager, listingId: string, endingOnOrAfter: string): Promise<BookedDatesView[]> {
    return em.getConnection().execute<BookedDatesView[]>(
      `select booking->>'from' as "from", booking->>'to' as "to" from message
        where kind = 'booking-request' and booking->>'listing_id' = ? and booking->>'status' = 'accepted' and booking->>'to' >= ?
        order by booking->>'from'`,
      [listingId, endingOnOrAfter],
    );
  }

  /**
   * Refuses dates that overlap an accepted booking of the listing. The listing's bookings are
   * checked one transaction at a time (an advisory lock on the listing), so two acceptances of
   * the same days cannot both pass.
   */
  private async checkDatesFree(tx: EntityManager, listingId: string, from: string, to: string): Promise<void> {
    await tx.getConnection().execute(`select pg_advisory_xact_lock(hashtext('booking:' || ?))`, [listingId]);
    const taken = (await this.acceptedBookings(tx, listingId, from)).find((booked) => booked.from <= to);
    if (taken) throw new FieldValidationException({ from: BOOKING_TEXTS.datesTaken(taken.from, taken.to) });
  }

  // ----- Blocks -----

  async block(blocker: User, blockedId: string): Promise<void> {
    if (blockedId === blocker.id) throw new BadRequestException(MESSAGING_TEXTS.cannotBlockYourself);
    const blocked = await this.em.findOne(User, { id: blockedId, deletedAt: null });
    if (!blocked) throw new NotFoundException(MESSAGING_TEXTS.userNotFound);
    await this.em
      .getConnection()
      .execute(`insert into user_block (blocker_id, blocked_id, created_at) values (?, ?, ?) on conflict do nothing`, [
        blocker.id,
        blockedId,
        new Date(),
      ]);
  }

  async unblock(blocker: User, blockedId: string): Promise<void> {
    if (!isUuid(blockedId)) throw new NotFoundException(MESSAGING_TEXTS.userNotFound);
    await this.em.fork().nativeDelete(UserBlock, { blocker: blocker.id, blocked: blockedId });
  }

  async blocks(blockerId: string): Promise<BlockedUserView[]> {
    const em = this.em.fork();
    const blocks = await em.find(UserBlock, { blocker: blockerId }, { orderBy: { createdAt: 'desc' } });
    const users = await this.usersById(
      em,
      blocks.map((b) => b.blocked),
    );
    return blocks.map((b) => ({ user_id: b.blocked, name: participantName(users.get(b.blocked)), blocked_at: b.createdAt.toISOString() }));
  }

  // ----- Helpers -----

  private async listingOrFail(listingId: string): Promise<ListingBrief> {
    const listing = (await this.listings.briefs([listingId])).get(listingId);
    if (!listing) throw new NotFoundException(MESSAGING_TEXTS.listingNotFound);
    return listing;
  }

  /** The caller's conversation about the listing, made when there is none (a new one needs a live listing). */
  private async conversationFor(userId: string, listing: ListingBrief): Promise<Conversation> {
    return this.em.transactional(async (tx) => {
      await tx
        .getConnection()
        .execute(`select pg_advisory_xact_lock(hashtext(?))`, [`conversation:${userId}:${listing.id}`], 'all', tx.getTransactionContext());
      const existing = await tx.findOne(Conversation, { starter: userId, owner: listing.sellerId, listingId: listing.id });
      if (existing) {
        existing.starterHiddenAt = null;
        return existing;
      }
      if (listing.status !== 'live') throw new BadRequestException(MESSAGING_TEXTS.listingNotLive);
      await this.checkMayMessage(tx, userId, listing.sellerId);
      await this.limits.consume(
        { key: `messages:start:user:${userId}`, limit: NEW_CONVERSATIONS_PER_HOUR, windowSeconds: 3600 },
        (wait) =>
          `You have started ${NEW_CONVERSATIONS_PER_HOUR} conversations in the last hour, the most allowed. Please wait ${waitText(wait)} and try again.`,
      );
      const conversation = tx.create(Conversation, {
        starter: userId,
        owner: listing.sellerId,
        listingId: listing.id,
        title: listing.title,
      });
      tx.persist(conversation);
      return conversation;
    });
  }

  /** The conversation when `userId` takes part in it; a 404 otherwise (another's id reveals nothing). */
  private async ownConversation(em: EntityManager, userId: string, conversationId: string, lock = false): Promise<Conversation> {
    const conversation = isUuid(conversationId)
      ? await em.findOne(
          Conversation,
          { id: conversationId, $or: [{ starter: userId }, { owner: userId }] },
          lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
        )
      : null;
    if (!conversation) throw new NotFoundException(MESSAGING_TEXTS.conversationNotFound);
    return conversation;
  }

  /** A blocked user cannot start or continue a conversation with the blocker, nor the blocker with them. */
  private async checkMayMessage(em: EntityManager, senderId: string, recipientId: string): Promise<void> {
    const recipient = await em.findOne(User, { id: recipientId });
    if (!recipient || recipient.deletedAt) throw new ForbiddenException(MESSAGING_TEXTS.otherGone);
    const blocks = await em.find(UserBlock, {
      $or: [
        { blocker: recipientId, blocked: senderId },
        { blocker: senderId, blocked: recipientId },
      ],
    });
    if (blocks.some((b) => b.blocker === recipientId)) throw new ForbiddenException(MESSAGING_TEXTS.blockedByThem);
    if (blocks.length > 0) throw new ForbiddenException(MESSAGING_TEXTS.blockedByYou);
  }

  /** Persists a message in `tx` with its `message.sent` event; the conversation comes back for both. */
  private store(
    tx: EntityManager,
    conversation: Conversation,
    senderId: string,
    body: { content: string; kind?: Message['kind']; booking?: BookingDetails },
  ): Message {
    const createdAt = new Date();
    const recipient = otherParticipant(conversation, senderId);
    const safetyNotice = needsSafetyNotice(body.content);
    const message = tx.create(Message, { conversation: conversation.id, sender: senderId, recipient, createdAt, safetyNotice, ...body });
    tx.persist(message);
    conversation.updatedAt = createdAt;
    conversation.starterHiddenAt = null;
    conversation.ownerHiddenAt = null;
    this.events.publish(tx, 'message.sent', { messageId: message.id, conversationId: conversation.id, senderId, recipientId: recipient });
    return message;
  }

  /** Each side gets its own view: only the recipient's carries the safety notice. */
  private pushNewMessage(message: Message, sender: User, conversation: Conversation): void {
    for (const side of [conversation.starter, conversation.owner]) {
      const view = this.messageView(message, sender, side);
      this.push(side, 'NEW_MESSAGE', {
        type: 'NEW_MESSAGE',
        data: { message: view, conversation_title: conversation.title },
        timestamp: view.created_at,
      });
    }
  }

  /** Live events go after the commit; a failure to push never fails the request (the row is stored). */
  private push<E extends ServerEvent>(userId: string, event: E, payload: ServerEventPayload<E>): void {
    try {
      this.realtime.toUser(userId, event, payload);
    } catch (error) {
      this.logger.warn(`could not push ${event}: ${String(error)}`);
    }
  }

  private async viewOf(userId: string, conversationId: string): Promise<ConversationView> {
    const rows = await this.conversationRows(
      userId,
      '(c.starter_id = ? or c.owner_id = ?) and c.id = ?',
      [userId, userId, conversationId],
      1,
    );
    const [view] = await this.views(userId, rows);
    if (!view) throw new NotFoundException(MESSAGING_TEXTS.conversationNotFound);
    return view;
  }

  /** The caller's conversations matching `where` (over `c`, the conversation, and `other`, the other party's account). */
  private conversationRows(userId: string, where: string, params: unknown[], limit: number): Promise<ConversationRow[]> {
    return this.em.getConnection().execute<ConversationRow[]>(
      `select c.id, c.title, c.listing_id, c.starter_id, c.owner_id, c.updated_at,
              last.content as last_content, last.sender_id as last_sender_id, last.created_at as last_created_at,
              (select count(*)::int from message u where u.conversation_id = c.id and u.recipient_id = ? and u.read_at is null) as unread
         from conversation c
         join app_user other on other.id = case when c.starter_id = ? then c.owner_id else c.starter_id end
         left join lateral (
           select m.content, m.sender_id, m.created_at from message m
            where m.conversation_id = c.id
              and m.created_at > coalesce(case when c.starter_id = ? then c.starter_cleared_at else c.owner_cleared_at end, '-infinity')
            order by m.created_at desc, m.id desc limit 1
         ) last on true
        where ${where}
        order by c.updated_at desc, c.id desc
        limit ?`,
      [userId, userId, userId, ...params, limit],
    );
  }

  private async views(userId: string, rows: ConversationRow[]): Promise<ConversationView[]> {
    const em = this.em.fork();
    const otherIds = rows.map((row) => (row.starter_id === userId ? row.owner_id : row.starter_id));
    const [users, listings, blocks] = await Promise.all([
      this.usersById(em, otherIds),
      this.listings.briefs(rows.flatMap((row) => (row.listing_id ? [row.listing_id] : []))),
      em.find(UserBlock, { blocker: userId, blocked: { $in: otherIds } }),
    ]);
    const blocked = new Set(blocks.map((b) => b.blocked));
    return rows.map((row, index) => {
      const otherId = otherIds[index] as string;
      const other = users.get(otherId);
      const listing = row.listing_id ? listings.get(row.listing_id) : undefined;
      return {
        id: row.id,
        title: row.title,
        listing: row.listing_id
          ? {
              id: row.listing_id,
              title: listing?.title ?? row.title,
              image: listing?.image ?? null,
              status: listing?.status ?? 'deleted',
              type: listing?.type ?? null,
              is_owner: row.owner_id === userId,
            }
          : null,
        other_participant: {
          id: otherId,
          name: participantName(other),
          avatar_url: other && !other.deletedAt ? (other.avatarUrl ?? null) : null,
          exists: Boolean(other && !other.deletedAt),
        },
        last_message:
          row.last_content !== null && row.last_created_at
            ? {
                content: row.last_content,
                sender_id: row.last_sender_id && authorId(row.last_sender_id, users.get(row.last_sender_id)),
                created_at: new Date(row.last_created_at).toISOString(),
              }
            : null,
        unread_count: row.unread,
        blocked: blocked.has(otherId),
        updated_at: new Date(row.updated_at).toISOString(),
      };
    });
  }

  private async usersById(em: EntityManager, ids: string[]): Promise<Map<string, User>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    return new Map((await em.find(User, { id: { $in: unique } })).map((u) => [u.id, u]));
  }

  /** The messages as `viewerId` sees them. */
  private async messageViews(viewerId: string, messages: Message[]): Promise<MessageView[]> {
    const users = await this.usersById(
      this.em.fork(),
      messages.map((m) => m.sender),
    );
    return messages.map((m) => this.messageView(m, users.get(m.sender), viewerId));
  }

  private messageView(message: Message, sender: User | undefined, viewerId: string): MessageView {
    return {
      id: message.id,
      conversation_id: message.conversation,
      sender_id: authorId(message.sender, sender),
      sender_name: participantName(sender),
      content: message.content,
      kind: message.kind,
      booking: message.booking ?? null,
      read: Boolean(message.readAt),
      created_at: message.createdAt.toISOString(),
      // Shown to the recipient only: the sender is not told which words set it off.
      safety_notice: message.safetyNotice && viewerId === message.recipient,
    };
  }
}

/** The booking's price at the listing's price now: kept with the request (an accepted booking keeps it). */
function quoteFor(listing: ListingBrief, request: BookingRequestRequest): BookingQuote {
  const quantityUnit = bookingQuantityUnit(listing.priceUnit);
  const listed = listing.attributes[quantityUnit === 'acres' ? 'acres' : 'head_count'];
  const result = bookingQuote({
    pricePence: listing.pricePence,
    unit: listing.priceUnit,
    vat: listing.vat,
    from: request.from,
    to: request.to,
    quantity: request.quantity,
    listedQuantity: quantityUnit && typeof listed === 'number' ? listed : undefined,
  });
  if ('errors' in result) throw new FieldValidationException(result.errors);
  return result.quote;
}

/** SPEC-beyond: a booking's dates are in order, not past, and within the listing's availability. */
export function checkBookingDates(from: string, to: string, attributes: Record<string, unknown>): void {
  if (to < from) throw new FieldValidationException({ to: BOOKING_TEXTS.toBeforeFrom });
  if (from < todayInUk()) throw new FieldValidationException({ from: BOOKING_TEXTS.inThePast });
  const availableFrom = typeof attributes['available_from'] === 'string' ? attributes['available_from'] : undefined;
  const availableTo = typeof attributes['available_to'] === 'string' ? attributes['available_to'] : undefined;
  if ((availableFrom && from < availableFrom) || (availableTo && to > availableTo)) {
    throw new FieldValidationException({ from: BOOKING_TEXTS.outsideAvailability(availableFrom, availableTo) });
  }
}
