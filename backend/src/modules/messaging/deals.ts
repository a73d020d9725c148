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

/** Conversations firstDeal reads at a time. */
const FIRST_DEAL_PAGE = 20;

interface ConversationRow {
  id: string;
  listing_id: string;
  title: string;
  starter_id: string;
  owner_id: string;
  first_at: Date;
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
    return this.dealsIn(await this.conversationRows(userId, listingId), userId);
  }

  /**
   * The newest deal of `userId`, or undefined: reads their conversations a page at a time and stops at
   * the first deal, instead of loading every deal to test for one.
   */
  async firstDeal(userId: string): Promise<Deal | undefined> {
    for (let offset = 0; ; offset += FIRST_DEAL_PAGE) {
      const rows = await this.conversationRows(userId, undefined, { limit: FIRST_DEAL_PAGE, offset });
      const [deal] = await this.dealsIn(rows, userId);
      if (deal) return deal;
      if (rows.length < FIRST_DEAL_PAGE) return undefined;
    }
  }

  /** Conversations about a listing in which both wrote, newest first, with whether a booking in it was accepted. */
  private conversationRows(userId: string, listingId?: string, page?: { limit: number; offset: number }): Promise<ConversationRow[]> {
    return this.em
      .fork()
      .getConnection()
      .execute<ConversationRow[]>(
        `select c.id, c.listing_id, c.title, c.starter_id, c.owner_id, min(m.created_at) as first_at,
              bool_or(m.kind = 'booking-request' and m.booking->>'status' = 'accepted') as booked
         from conversation c join message m on m.conversation_id = c.id
        where (c.starter_id = ? or c.owner_id = ?) and c.listing_id is not null ${listingId ? 'and c.listing_id = ?' : ''}
        group by c.id
       having bool_or(m.sender_id = c.starter_id) and bool_or(m.sender_id = c.owner_id)
        order by c.created_at desc, c.id ${page ? 'limit ? offset ?' : ''}`,
        [userId, userId, ...(listingId ? [listingId] : []), ...(page ? [page.limit, page.offset] : [])],
      );
  }

  private async dealsIn(rows: ConversationRow[], userId: string): Promise<Deal[]> {
    const briefs = await this.listings.briefs(rows.filter((row) => !row.booked).map((row) => row.listing_id));
    return rows.flatMap((row): Deal[] => {
      const status = briefs.get(row.listing_id)?.status;
      const how = row.booked ? 'booking' : status === 'sold' || status === 'let' ? status : undefined;
      if (!how) return [];
      const otherId = row.starter_id === userId ? row.owner_id : row.starter_id;
      return [
        {
          conversationId: row.id,
          listingId: row.listing_id,
          listingTitle: row.title,
          otherId,
          firstMessageAt: new Date(row.first_at),
          how,
        },
      ];
    });
  }
}
