import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { ListingsService } from '../listings/listings.service.js';

/**
 * A deal done through Fieldmarket (issue 23): a conversation about a listing in which both people
 * wrote, and either the owner accepted a booking request in it or marked the listing sold or let.
 * Only such people may tell a success story or review each other.
 */
export interface Deal {
  conversationId: string;
  listingId: string;
  listingTitle: string;
  /** The other person of the conversation. */
  otherId: string;
  firstMessageAt: Date;
  how: 'booking' | 'sold' | 'let';
}

/** A conversation about a listing, as far as a deal goes: who wrote, and whether (and how) the deal was done. */
export interface ConversationDeal {
  conversationId: string;
  listingId: string;
  listingTitle: string;
  starterId: string;
  ownerId: string;
  /** When its first message was sent (null when none was). */
  firstMessageAt: Date | null;
  /** Both people wrote in it. */
  bothWrote: boolean;
  /** How the deal was done, or null while it is not (a deal needs both to have written). */
  how: Deal['how'] | null;
}

/** Conversations firstDeal reads at a time. */
const FIRST_DEAL_PAGE = 20;

interface ConversationRow {
  id: string;
  listing_id: string;
  title: string;
  starter_id: string;
  owner_id: string;
  first_at: Date | null;
  both_wrote: boolean;
  booked: boolean;
}

/** Messaging's answer to "which deals has this person done here?", read by the modules that reward a real deal. */
@Injectable()
export class Deals {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ListingsService) private readonly listings: ListingsService,
  ) {}

  /** The deals `userId` took part in, newest conversation first; `listingId` narrows to one listing. */
  async dealsOf(userId: string, listingId?: string): Promise<Deal[]> {
    const conversations = await this.conversations(
      `(c.starter_id = ? or c.owner_id = ?) ${listingId ? 'and c.listing_id = ?' : ''}`,
      listingId ? [userId, userId, listingId] : [userId, userId],
    );
    return this.dealsIn(conversations, userId);
  }

  /**
   * The newest deal of `userId`, or undefined: reads their conversations a page at a time and stops at
   * the first deal, instead of loading every deal to test for one.
   */
  async firstDeal(userId: string): Promise<Deal | undefined> {
    for (let offset = 0; ; offset += FIRST_DEAL_PAGE) {
      const page = await this.conversations('(c.starter_id = ? or c.owner_id = ?)', [userId, userId], { limit: FIRST_DEAL_PAGE, offset });
      const [deal] = this.dealsIn(page, userId);
      if (deal) return deal;
      if (page.length < FIRST_DEAL_PAGE) return undefined;
    }
  }

  private dealsIn(conversations: ConversationDeal[], userId: string): Deal[] {
    return conversations.flatMap((c): Deal[] =>
      c.how && c.firstMessageAt
        ? [
            {
              conversationId: c.conversationId,
              listingId: c.listingId,
              listingTitle: c.listingTitle,
              otherId: c.starterId === userId ? c.ownerId : c.starterId,
              firstMessageAt: c.firstMessageAt,
              how: c.how,
            },
          ]
        : [],
    );
  }

  /** The conversation `conversationId` about a listing, if `userId` is one of its two people. */
  async inConversation(conversationId: string, userId: string): Promise<ConversationDeal | null> {
    const [conversation] = await this.conversations('c.id = ? and (c.starter_id = ? or c.owner_id = ?)', [conversationId, userId, userId]);
    return conversation ?? null;
  }

  /** Whether either of the two blocked the other. */
  async blockedBetween(a: string, b: string): Promise<boolean> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ n: string }>>(
        'select count(*) as n from user_block where (blocker_id = ? and blocked_id = ?) or (blocker_id = ? and blocked_id = ?)',
        [a, b, b, a],
      );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  /**
   * Conversations about a listing matching `where`, newest first, each with the deal rule applied:
   * both wrote, and the owner accepted a booking request in it or the listing is sold or let.
   */
  private async conversations(where: string, params: string[], page?: { limit: number; offset: number }): Promise<ConversationDeal[]> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<ConversationRow[]>(
        `select c.id, c.listing_id, c.title, c.starter_id, c.owner_id, min(m.created_at) as first_at,
              coalesce(bool_or(m.sender_id = c.starter_id) and bool_or(m.sender_id = c.owner_id), false) as both_wrote,
              coalesce(bool_or(m.kind = 'booking-request' and m.booking->>'status' = 'accepted'), false) as booked
         from conversation c left join message m on m.conversation_id = c.id
        where c.listing_id is not null and ${where}
        group by c.id
        order by c.created_at desc, c.id ${page ? 'limit ? offset ?' : ''}`,
        page ? [...params, page.limit, page.offset] : params,
      );
    const briefs = await this.listings.briefs(rows.filter((row) => row.both_wrote && !row.booked).map((row) => row.listing_id));
    return rows.map((row) => {
      const status = briefs.get(row.listing_id)?.status;
      const how = !row.both_wrote ? null : row.booked ? 'booking' : status === 'sold' || status === 'let' ? status : null;
      return {
        conversationId: row.id,
        listingId: row.listing_id,
        listingTitle: row.title,
        starterId: row.starter_id,
        ownerId: row.owner_id,
        firstMessageAt: row.first_at === null ? null : new Date(row.first_at),
        bothWrote: row.both_wrote,
        how,
      };
    });
  }
}
