import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { EXPIRY_WARNING_DAYS } from '../../contracts/listings.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { CategoriesService } from '../categories/categories.service.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { Listing } from './listing.entity.js';

const BATCH = 500;

/**
 * A listing's life after it is posted: the warning a week before it expires, expiry after 90
 * days, and what happens to a deleted account's listings. Also the listings' part of the data
 * export and of the profile's statistics.
 */
@Injectable()
export class ListingsLifecycle implements OnModuleInit {
  private readonly logger = new Logger('Listings');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CategoriesService) private readonly categories: CategoriesService,
  ) {}

  onModuleInit(): void {
    this.categories.countWith(async () => {
      const rows = await this.em
        .getConnection()
        .execute<Array<{ category_id: number; live: number }>>(
          `select category_id, count(*)::int as live from listing where status = 'live' group by category_id`,
        );
      return new Map(rows.map((row) => [row.category_id, row.live]));
    });
    this.userData.addStatistics(async (userId) => ({
      activeListings: await this.em.fork().count(Listing, { seller: userId, status: 'live' }),
      listingsSold: await this.em.fork().count(Listing, { seller: userId, status: { $in: ['sold', 'let'] } }),
      cphDeclared: (await this.em.fork().count(Listing, { seller: userId, status: 'live', attributes: { cph: { $ne: null } } })) > 0,
    }));
    this.userData.addPart({
      name: 'listings',
      exportFor: async (userId) =>
        (await this.em.fork().find(Listing, { seller: userId }, { populate: ['category'], orderBy: { createdAt: 'asc' } })).map((l) => ({
          id: l.id,
          type: l.type,
          category: l.category.getEntity().slug,
          rent_subcategory: l.rentSubcategory ?? null,
          title: l.title,
          description: l.description,
          price: l.pricePence / 100,
          price_unit: l.priceUnit,
          vat: l.vat,
          location: l.locationText,
          attributes: l.attributes,
          status: l.status,
          views: l.views,
          saves_count: l.savesCount,
          created_at: l.createdAt.toISOString(),
          published_at: l.publishedAt.toISOString(),
          expires_at: l.expiresAt.toISOString(),
        })),
    });
    this.userData.addPart({
      name: 'saved_listings',
      exportFor: async (userId) =>
        this.em
          .fork()
          .getConnection()
          .execute(
            `select s.listing_id, l.title, s.created_at as saved_at from saved_listing s join listing l on l.id = s.listing_id
              where s.user_id = ? order by s.created_at`,
            [userId],
          ),
    });
  }

  /** Warns sellers a week ahead, then expires listings whose 90 days are up. */
  @ScheduledJob({ name: 'listings.expire', queue: 'maintenance', everyMs: 15 * 60_000 })
  async expire(): Promise<void> {
    let warned = 0;
    let expired = 0;
    for (;;) {
      const batch = await this.em.transactional(async (tx) => {
        const soon = await tx.find(
          Listing,
          { status: 'live', expiryWarnedAt: null, expiresAt: { $lte: new Date(Date.now() + EXPIRY_WARNING_DAYS * 24 * 3600_000) } },
          // Soonest first, the order of the unwarned listings' own index (without an order PostgreSQL,
          // taking a sixteenth of all listings to be due, read the whole table for none).
          { limit: BATCH, lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { expiresAt: 'asc' } },
        );
        for (const listing of soon) {
          listing.expiryWarnedAt = new Date();
          this.events.publish(tx, 'listing.expiring', { listingId: listing.id });
        }
        return soon.length;
      });
      warned += batch;
      if (batch < BATCH) break;
    }
    for (;;) {
      const batch = await this.em.transactional(async (tx) => {
        // Every live listing due was warned by the loop above (it warns those past their expiry too), so
        // the warned ones are all there are; the index of warned listings holds just them.
        const due = await tx.find(
          Listing,
          { status: 'live', expiryWarnedAt: { $ne: null }, expiresAt: { $lte: new Date() } },
          { limit: BATCH, lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { expiresAt: 'asc' } },
        );
        for (const listing of due) {
          listing.status = 'expired';
          this.events.publish(tx, 'listing.status-changed', { listingId: listing.id, from: 'live', to: 'expired' });
        }
        return due.length;
      });
      expired += batch;
      if (batch < BATCH) break;
    }
    if (warned + expired > 0) this.logger.log(`${warned} listing(s) warned of expiry, ${expired} expired`);
  }

  @OnDomainEvent('listing.expiring', { name: 'listings.mail-expiry-warning', queue: 'mail' })
  async mailExpiryWarning(event: DomainEvent<'listing.expiring'>): Promise<void> {
    const listing = await this.em.findOne(Listing, { id: event.payload.listingId, status: 'live' }, { populate: ['seller'] });
    const seller = listing?.seller.getEntity();
    if (!listing || !seller || seller.deletedAt) return;
    const date = listing.expiresAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
    await this.mail.send({
      key: `listing-${listing.id}.expiry-warning.${event.id}`,
      to: seller.email,
      subject: `Your listing "${listing.title}" expires on ${date}`,
      text: [
        `Hello ${seller.fullName},`,
        '',
        `Your listing "${listing.title}" will stop showing on Fieldmarket on ${date}, 90 days after it went live.`,
        `To keep it live for another 90 days, renew it from My Listings: ${this.config.publicUrl}/profile#listings`,
        '',
        'If it has sold or been let, mark it so and buyers will stop asking.',
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  /**
   * A deleted account's listings go and what it saved is forgotten, in one transaction so a retried
   * job never counts a save off twice. Its photos are the images module's part of the same event.
   */
  @OnDomainEvent('user.deleted', { name: 'listings.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    const { userId } = event.payload;
    await this.em.fork().transactional(async (tx) => {
      const run = (sql: string) => tx.getConnection().execute(sql, [userId], 'run', tx.getTransactionContext());
      await run(
        `update listing l set saves_count = greatest(0, saves_count - 1) from saved_listing s where s.listing_id = l.id and s.user_id = ?`,
      );
      await run(`delete from saved_listing where user_id = ?`);
      await tx.nativeDelete(Listing, { seller: userId });
    });
  }
}
