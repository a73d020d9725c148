import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { ListingSearch } from './listing-search/listing-search.js';
import { DEFAULT_RADIUS_MILES, searchQueryFromJson, type StoredSearchQuery } from './listing-search/search-query.js';

/** Miles a wanted ad's search place (an outcode's centre) may lie from the ad's own rounded point. */
const PLACE_SLACK_MILES = 30;

/** A live wanted ad a listing answers, and who posted it. */
export interface WantedMatch {
  wantedId: string;
  ownerId: string;
  title: string;
}

interface WantedCandidate {
  id: string;
  seller_id: string;
  title: string;
  wanted_search: StoredSearchQuery;
}

/**
 * Wanted ads a new listing answers. A wanted ad's ranges are a search (its stored SearchQuery),
 * so a listing answers it exactly when browsing with that search would show the listing
 * (ListingSearch.finds): there is no second set of matching rules. Candidates are the live
 * wanted ads of the listing's category, of other people, whose price reaches the listing's and
 * whose radius roughly reaches it (from the partial index `listing_live_wanted_index`).
 */
@Injectable()
export class WantedMatches {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ListingSearch) private readonly search: ListingSearch,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The live wanted ads this live listing (for sale) answers; none for a wanted ad itself. */
  async wantedAdsFor(listingId: string): Promise<WantedMatch[]> {
    const candidates = await this.em.getConnection().execute<WantedCandidate[]>(
      `select w.id, w.seller_id, w.title, w.wanted_search
         from listing l
         join listing w on w.status = 'live' and w.type = 'wanted' and w.category_id = l.category_id
          and w.seller_id <> l.seller_id
          -- In the ad's own unit (a lot's total over its head count, say): a raw comparison of pence would
          -- never offer "40 for £4,000" to "up to £120 a head".
          and w.price_pence >= listing_price_in_unit(l.price_pence, l.price_unit, l.attributes, w.price_unit)
          -- Near enough to be worth asking: within the ad's radius, with room for its search's place (an
          -- outcode's centre) lying away from the ad's own rounded point. The search decides.
          and earth_distance(ll_to_earth(w.latitude, w.longitude), ll_to_earth(l.latitude, l.longitude))
            <= (coalesce((w.wanted_search -> 'params' ->> 'radius')::numeric, ${DEFAULT_RADIUS_MILES}) + ${PLACE_SLACK_MILES}) * 1609.344
        where l.id = ? and l.status = 'live' and l.type = 'sale'
        order by w.published_at, w.id`,
      [listingId],
    );
    const asked = candidates.flatMap((candidate) => {
      const stored = searchQueryFromJson(candidate.wanted_search);
      // Written by an older version and no longer readable: it asks nothing.
      return 'errors' in stored ? [] : [{ key: candidate.id, query: stored.query }];
    });
    const found = new Set(await this.search.finding(asked, listingId));
    return candidates
      .filter((candidate) => found.has(candidate.id))
      .map((candidate) => ({ wantedId: candidate.id, ownerId: candidate.seller_id, title: candidate.title }));
  }

  /**
   * A listing went live: each wanted ad it answers is recorded once (wanted_match), and its owner
   * told through 'wanted.matched' in the same transaction. A retried job records nothing twice.
   */
  @OnDomainEvent('listing.published', { name: 'wanted.match-new-listing', queue: 'notifications' })
  async matchNewListing(event: DomainEvent<'listing.published'>): Promise<void> {
    const { listingId } = event.payload;
    const matches = await this.wantedAdsFor(listingId);
    if (matches.length === 0) return;
    await this.em.fork().transactional(async (tx) => {
      for (const match of matches) {
        const inserted = await tx.execute<Array<{ wanted_id: string }>>(
          `insert into wanted_match (listing_id, wanted_id) values (?, ?) on conflict do nothing returning wanted_id`,
          [listingId, match.wantedId],
        );
        if (inserted.length > 0) this.events.publish(tx, 'wanted.matched', { listingId, wantedId: match.wantedId, ownerId: match.ownerId });
      }
    });
  }

  /** The wanted ad's owner by e-mail, unless they turned e-mail notifications off (the bell is NotificationsSubscriber's). */
  @OnDomainEvent('wanted.matched', { name: 'wanted.mail-match', queue: 'mail' })
  async mailMatch(event: DomainEvent<'wanted.matched'>): Promise<void> {
    const { listingId, wantedId, ownerId } = event.payload;
    const [row] = await this.em
      .getConnection()
      .execute<Array<{ email: string; full_name: string; email_notifications: boolean; wanted_title: string; listing_title: string }>>(
        `select u.email, u.full_name, u.email_notifications, w.title as wanted_title, l.title as listing_title
         from app_user u, listing w, listing l
        where u.id = ? and u.deleted_at is null and w.id = ? and w.seller_id = u.id and w.status = 'live'
          and l.id = ? and l.status = 'live'`,
        [ownerId, wantedId, listingId],
      );
    if (!row || !row.email_notifications) return;
    await this.mail.send({
      key: `wanted-${wantedId}.match.${listingId}`,
      to: row.email,
      subject: `A listing matches your wanted ad "${row.wanted_title}"`,
      text: [
        `Hello ${row.full_name},`,
        '',
        `"${row.listing_title}" was just posted on Fieldmarket and matches your wanted ad "${row.wanted_title}".`,
        '',
        `See it and message the seller: ${this.config.publicUrl}/listing/${listingId}`,
        '',
        'You can turn these e-mails off in your profile’s privacy settings (email notifications).',
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }
}
