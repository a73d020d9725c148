import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { ListingImages } from './listing-images.js';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { RETENTION } from '../../contracts/retention.js';
import { daysBefore, RetentionRegistry } from '../retention/retention.registry.js';
import { ListingAppeal } from './listing-appeal.entity.js';

/** Hidden listings the retention job deletes in one run at most (the next run takes the rest). */
const PURGE_BATCH = 500;
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { LISTING_TEXTS, type ListingStatus } from '../../contracts/listings.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { Listing } from './listing.entity.js';
import { isUuid } from '../../common/uuid.js';

export interface ListingModerationSummary {
  id: string;
  title: string;
  status: ListingStatus;
  featured: boolean;
  sellerId: string;
  sellerName: string;
  removalReason: string | null;
  removedWithSeller: boolean;
  caseClosed: boolean;
  /** The owner has appealed this hiding and staff have not decided: the appeal, not "Close case", ends it. */
  appealPending: boolean;
}

/**
 * What staff do to listings: hide (status removed, the seller told why), restore, feature, and
 * hide or restore every listing of a suspended seller. Each method works in the caller's
 * transaction, so the staff module writes its audit entry with the change.
 */
@Injectable()
export class ListingModeration implements OnModuleInit {
  constructor(
    @Inject(RetentionRegistry) private readonly retention: RetentionRegistry,
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ListingImages) private readonly images: ListingImages,
  ) {}

  onModuleInit(): void {
    this.retention.add({ what: 'hidden listings', purge: (now) => this.purgeHidden(now) });
  }

  /**
   * Deletes listings staff hid more than RETENTION.hiddenListingDays ago, with their photos (the files go
   * once each deletion commits, like an owner's delete), except those whose appeal is still waiting.
   */
  private async purgeHidden(now: Date): Promise<number> {
    const em = this.em.fork();
    const waiting = (await em.find(ListingAppeal, { status: 'pending' }, { fields: ['listing'] })).map((appeal) => appeal.listing.id);
    const due = await em.find(
      Listing,
      {
        status: 'removed',
        removedWithSeller: false,
        removedAt: { $lt: daysBefore(now, RETENTION.hiddenListingDays) },
        ...(waiting.length > 0 ? { id: { $nin: waiting } } : {}),
      },
      { fields: ['id'], limit: PURGE_BATCH },
    );
    for (const { id } of due) {
      await this.em.fork().transactional(async (tx) => {
        const listing = await tx.findOne(Listing, { id, status: 'removed' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!listing) return;
        await this.images.deleteFor(id, tx);
        tx.remove(listing);
        this.events.publish(tx, 'listing.deleted', { listingId: id, sellerId: listing.seller.id });
      });
    }
    return due.length;
  }

  async summary(id: string): Promise<ListingModerationSummary | null> {
    const em = this.em.fork();
    const listing = isUuid(id) ? await em.findOne(Listing, { id }, { populate: ['seller'] }) : null;
    if (!listing) return null;
    const appealPending =
      Boolean(listing.removedAt) && (await em.count(ListingAppeal, { listing: id, hiddenAt: listing.removedAt, status: 'pending' })) > 0;
    return summaryOf(listing, appealPending);
  }

  /** A listing others may report: live, with its seller and title. */
  async reportable(id: string): Promise<{ id: string; title: string; sellerId: string } | null> {
    const listing = isUuid(id) ? await this.em.fork().findOne(Listing, { id, status: 'live' }) : null;
    return listing ? { id: listing.id, title: listing.title, sellerId: listing.seller.id } : null;
  }

  async hide(tx: EntityManager, id: string, reason: string): Promise<ListingModerationSummary> {
    const listing = await this.locked(tx, id);
    if (listing.status === 'removed') throw new ConflictException('This listing is already hidden.');
    const from = listing.status;
    listing.statusBeforeRemoval = from;
    listing.status = 'removed';
    listing.removalReason = reason;
    listing.removedAt = new Date();
    listing.removalClosedAt = null;
    listing.featured = false;
    this.events.publish(tx, 'listing.status-changed', { listingId: id, from, to: 'removed' });
    this.events.publish(tx, 'listing.removed-by-staff', { listingId: id });
    await this.images.withhold(tx, [id], true);
    return summaryOf(listing);
  }

  async restore(tx: EntityManager, id: string): Promise<ListingModerationSummary> {
    const listing = await this.locked(tx, id);
    if (listing.status !== 'removed') throw new ConflictException('This listing is not hidden.');
    if (listing.removedWithSeller)
      throw new ConflictException("This listing is hidden because its seller is suspended; lift the seller's suspension.");
    listing.status = backFrom(listing);
    listing.statusBeforeRemoval = undefined;
    listing.removalReason = undefined;
    listing.removedAt = null;
    listing.removalClosedAt = null;
    this.events.publish(tx, 'listing.status-changed', { listingId: id, from: 'removed', to: listing.status });
    await this.images.withhold(tx, [id], false);
    return summaryOf(listing);
  }

  /**
   * Upholds a hiding without an appeal ("Close case"): the owner may then delete the listing and can no
   * longer appeal this hiding. An appeal waiting in the inbox is decided there instead.
   */
  async closeCase(tx: EntityManager, id: string): Promise<ListingModerationSummary> {
    const listing = await this.locked(tx, id);
    if (listing.status !== 'removed' || listing.removedWithSeller || !listing.removedAt)
      throw new ConflictException('Only a listing our team hid for itself has a case to close.');
    if (listing.removalClosedAt) throw new ConflictException('This case is already closed.');
    if (await tx.count(ListingAppeal, { listing: id, hiddenAt: listing.removedAt, status: 'pending' }))
      throw new ConflictException('The owner has appealed: decide the appeal in the inbox, which closes the case.');
    listing.removalClosedAt = new Date();
    this.events.publish(tx, 'listing.case-closed', { listingId: id, ownerId: listing.seller.id });
    return summaryOf(listing);
  }

  async setFeatured(tx: EntityManager, id: string, featured: boolean): Promise<ListingModerationSummary> {
    const listing = await this.locked(tx, id);
    if (featured && listing.status !== 'live') throw new BadRequestException('Only a live listing can be featured.');
    listing.featured = featured;
    return summaryOf(listing);
  }

  /** Hides every shown listing of a suspended seller; returns how many. */
  async hideAllOf(tx: EntityManager, sellerId: string): Promise<number> {
    const listings = await tx.find(Listing, { seller: sellerId, status: { $ne: 'removed' } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const listing of listings) {
      listing.statusBeforeRemoval = listing.status;
      listing.status = 'removed';
      listing.removedWithSeller = true;
      listing.featured = false;
      this.events.publish(tx, 'listing.status-changed', { listingId: listing.id, from: listing.statusBeforeRemoval, to: 'removed' });
    }
    await this.images.withhold(
      tx,
      listings.map((listing) => listing.id),
      true,
    );
    return listings.length;
  }

  /** Gives back the listings hidden with their seller (not those staff hid for themselves); returns how many. */
  async restoreAllOf(tx: EntityManager, sellerId: string): Promise<number> {
    const listings = await tx.find(Listing, { seller: sellerId, removedWithSeller: true }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const listing of listings) {
      listing.status = backFrom(listing);
      listing.statusBeforeRemoval = undefined;
      listing.removedWithSeller = false;
      this.events.publish(tx, 'listing.status-changed', { listingId: listing.id, from: 'removed', to: listing.status });
    }
    await this.images.withhold(
      tx,
      listings.map((listing) => listing.id),
      false,
    );
    return listings.length;
  }

  /** Tells the seller their listing was hidden, and why; once per hiding (the key names the event). */
  @OnDomainEvent('listing.removed-by-staff', { name: 'listings.mail-removal', queue: 'mail' })
  async mailRemoval(event: DomainEvent<'listing.removed-by-staff'>): Promise<void> {
    const listing = await this.em.findOne(Listing, { id: event.payload.listingId, status: 'removed' }, { populate: ['seller'] });
    const seller = listing?.seller.getEntity();
    if (!listing || !seller || seller.deletedAt) return;
    await this.mail.send({
      key: `listing-${listing.id}.removed.${event.id}`,
      to: seller.email,
      subject: `Your listing "${listing.title}" has been hidden by our team`,
      text: [
        `Hello ${seller.fullName},`,
        '',
        `Our team has hidden your listing "${listing.title}" from Fieldmarket. Buyers can no longer see it.`,
        '',
        'The reason we gave:',
        listing.removalReason ?? '(none given)',
        '',
        `If you think this is a mistake, you can appeal once from the listing's page: ${this.config.publicUrl}/listing/${listing.id}`,
        'You can still see the listing in My Listings.',
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  /** Tells the owner staff closed the case: the listing stays hidden, and they may delete it. */
  @OnDomainEvent('listing.case-closed', { name: 'listings.mail-case-closed', queue: 'mail' })
  async mailCaseClosed(event: DomainEvent<'listing.case-closed'>): Promise<void> {
    const listing = await this.em.fork().findOne(Listing, { id: event.payload.listingId, status: 'removed' }, { populate: ['seller'] });
    const seller = listing?.seller.getEntity();
    if (!listing || !seller || seller.deletedAt) return;
    await this.mail.send({
      key: `listing-${listing.id}.case-closed.${event.id}`,
      to: seller.email,
      subject: `Your listing "${listing.title}" stays hidden`,
      text: [
        `Hello ${seller.fullName},`,
        '',
        `Our team has looked again at your listing "${listing.title}" and closed the case: it stays hidden. The reason we gave:`,
        listing.removalReason ?? '(none given)',
        '',
        'You can now delete the listing from My Listings if you wish.',
        `${this.config.publicUrl}/listing/${listing.id}`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  private async locked(tx: EntityManager, id: string): Promise<Listing> {
    const listing = isUuid(id) ? await tx.findOne(Listing, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['seller'] }) : null;
    if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
    return listing;
  }
}

/** The status a hidden listing returns to: what it had, or expired when its 90 days ran out meanwhile. */
function backFrom(listing: Listing): ListingStatus {
  const before = listing.statusBeforeRemoval ?? 'live';
  return before === 'live' && listing.expiresAt <= new Date() ? 'expired' : before;
}

/** Staff's actions below leave no appeal waiting: a new hiding has none yet, and the others end or refuse one. */
function summaryOf(listing: Listing, appealPending = false): ListingModerationSummary {
  const seller = listing.seller.isInitialized() ? listing.seller.getEntity() : undefined;
  return {
    id: listing.id,
    title: listing.title,
    status: listing.status,
    featured: listing.featured,
    sellerId: listing.seller.id,
    sellerName: seller?.fullName ?? '',
    removalReason: listing.removalReason ?? null,
    removedWithSeller: listing.removedWithSeller,
    caseClosed: Boolean(listing.removalClosedAt),
    appealPending,
  };
}
