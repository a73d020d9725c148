import { EntityManager, type FilterQuery, LockMode, type QueryOrderMap, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { APPEAL_TEXTS, LISTING_TEXTS, type ListingStatus } from '../../contracts/listings.js';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { isUuid } from '../../common/uuid.js';
import {
  applyDecision,
  decisionOf,
  type InboxDecisionKind,
  type InboxItem,
  type InboxItemDetail,
  InboxSourceBase,
  InboxSources,
} from '../staff/inbox/inbox-source.js';
import type { ListingModerationView } from './dto/listing.response.js';
import { ListingAppeal } from './listing-appeal.entity.js';
import { ListingModeration } from './listing-moderation.js';
import { Listing } from './listing.entity.js';

/**
 * A hidden listing seen by its owner (the reason, the appeal) and the owner's one appeal (issue 23
 * §5). The appeals are a staff inbox source: approving restores the listing, declining upholds the
 * hiding and closes the case; either way the owner is told (`listing.appeal-decided`).
 */
@Injectable()
export class ListingAppeals extends InboxSourceBase<ListingAppeal> {
  readonly kind = 'appeal' as const;
  protected readonly entity = ListingAppeal;
  protected readonly responseHours = RESPONSE_HOURS.appeal;

  constructor(
    @Inject(EntityManager) em: EntityManager,
    @Inject(InboxSources) registry: InboxSources,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(ListingModeration) private readonly moderation: ListingModeration,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(em, registry);
  }

  /** What the owner of a listing staff hid sees: why, and where their appeal stands. 404 to anyone else, or when it is not hidden. */
  async ofOwner(ownerId: string, listingId: string): Promise<ListingModerationView> {
    const em = this.em.fork();
    const listing = isUuid(listingId) ? await em.findOne(Listing, { id: listingId, seller: ownerId }) : null;
    if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
    // While hidden, the appeal against this hiding; once shown again, the last appeal (how it ended).
    const appeal = await em.findOne(
      ListingAppeal,
      listing.removedAt ? { listing: listing.id, hiddenAt: listing.removedAt } : { listing: listing.id },
      { orderBy: { createdAt: 'desc' } },
    );
    return moderationView(listing, appeal);
  }

  /** The cases of the owner's hidden listings among these, in one query: My Listings shows them on its cards. */
  async ofOwnerListings(ownerId: string, listingIds: string[]): Promise<Map<string, ListingModerationView>> {
    if (listingIds.length === 0) return new Map();
    const rows = await this.em.getConnection().execute<CaseRow[]>(
      `select l.id, l.status, l.removed_with_seller, l.removal_reason, l.removed_at, l.removal_closed_at,
              a.text as appeal_text, a.status as appeal_status, a.decline_reason, a.created_at as appeal_created_at, a.decided_at
         from listing l
         left join listing_appeal a on a.listing_id = l.id and a.hidden_at = l.removed_at
        where l.seller_id = ? and l.id in (?)`,
      [ownerId, listingIds],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        moderationView(
          {
            status: row.status,
            removedWithSeller: row.removed_with_seller,
            removalReason: row.removal_reason ?? undefined,
            removedAt: row.removed_at ? new Date(row.removed_at) : null,
            removalClosedAt: row.removal_closed_at ? new Date(row.removal_closed_at) : null,
          },
          row.appeal_status
            ? {
                text: row.appeal_text!,
                status: row.appeal_status,
                declineReason: row.decline_reason,
                createdAt: new Date(row.appeal_created_at!),
                decidedAt: row.decided_at ? new Date(row.decided_at) : null,
              }
            : null,
        ),
      ]),
    );
  }

  /** The owner's one appeal: it lands in the staff inbox. */
  async appeal(ownerId: string, listingId: string, text: string): Promise<ListingModerationView> {
    try {
      return await this.em.fork().transactional(async (tx) => {
        const listing = isUuid(listingId)
          ? await tx.findOne(Listing, { id: listingId, seller: ownerId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          : null;
        if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
        if (listing.status !== 'removed' || !listing.removedAt) throw new ConflictException(APPEAL_TEXTS.notHiddenByStaff);
        if (listing.removedWithSeller) throw new ConflictException(APPEAL_TEXTS.hiddenWithAccount);
        // One appeal per hiding: a listing restored and hidden again may be appealed again.
        const hiddenAt = listing.removedAt;
        if (await tx.count(ListingAppeal, { listing: listing.id, hiddenAt })) throw new ConflictException(APPEAL_TEXTS.alreadyAppealed);
        if (listing.removalClosedAt) throw new ConflictException(APPEAL_TEXTS.caseClosed);
        const appeal = tx.create(ListingAppeal, {
          listing: listing.id,
          owner: ownerId,
          hiddenAt,
          text,
          removalReason: listing.removalReason ?? '',
        });
        tx.persist(appeal);
        await tx.flush();
        return moderationView(listing, appeal);
      });
    } catch (error) {
      // Two appeals sent at once: the unique index lets one through.
      if (error instanceof UniqueConstraintViolationException) throw new ConflictException(APPEAL_TEXTS.alreadyAppealed);
      throw error;
    }
  }

  // ----- The staff inbox -----

  protected override load(
    em: EntityManager,
    where: FilterQuery<ListingAppeal>,
    options: { orderBy?: QueryOrderMap<ListingAppeal>; limit?: number },
  ): Promise<ListingAppeal[]> {
    return em.find(ListingAppeal, where, { ...options, populate: ['owner', 'listing'] });
  }

  protected toItem(appeal: ListingAppeal): InboxItem {
    const owner = appeal.owner.getEntity();
    const listing = appeal.listing.getEntity();
    return {
      ...this.tracked(appeal),
      subject: `Appeal (${appeal.status}) against hiding "${listing.title}"`,
      from: owner.deletedAt ? null : { name: owner.fullName, email: owner.email },
      preview: appeal.text.slice(0, 140),
      category: null,
      categoryLabel: null,
      rating: null,
      target: { kind: 'listing', id: listing.id, label: listing.title },
    };
  }

  protected toDetail(appeal: ListingAppeal): InboxItemDetail {
    return {
      ...this.toItem(appeal),
      body: appeal.text,
      fields: [
        { label: 'Listing', value: appeal.listing.getEntity().title },
        { label: 'Why we hid it', value: appeal.removalReason || '(no reason recorded)' },
        { label: 'Approve', value: 'restores the listing' },
        { label: 'Decline', value: 'upholds the hiding and closes the case; the owner may then delete it' },
      ],
      decision: decisionOf(appeal),
    };
  }

  /** Approve restores the listing; decline upholds the hiding and closes the case. The owner is told either way. */
  async decide(tx: EntityManager, id: string, decision: InboxDecisionKind, reason: string | undefined): Promise<boolean> {
    const [appeal] = await this.load(tx, { id }, { limit: 1 });
    if (!appeal) return false;
    if (appeal.status !== 'pending') throw new ConflictException('This appeal has already been decided.');
    const now = new Date();
    applyDecision(appeal, decision, reason, now);
    const listingId = appeal.listing.id;
    if (decision === 'approve') {
      await this.moderation.restore(tx, listingId);
    } else {
      const listing = await tx.findOneOrFail(Listing, { id: listingId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      listing.removalClosedAt = now;
    }
    this.events.publish(tx, 'listing.appeal-decided', {
      appealId: appeal.id,
      listingId,
      ownerId: appeal.owner.id,
      decision: appeal.status as 'approved' | 'declined',
    });
    await tx.flush();
    return true;
  }

  /** Tells the owner what staff decided, with the reason when the hiding stands. */
  @OnDomainEvent('listing.appeal-decided', { name: 'listings.mail-appeal-decision', queue: 'mail' })
  async mailDecision(event: DomainEvent<'listing.appeal-decided'>): Promise<void> {
    const appeal = await this.em.fork().findOne(ListingAppeal, { id: event.payload.appealId }, { populate: ['owner', 'listing'] });
    const owner = appeal?.owner.getEntity();
    if (!appeal || !owner || owner.deletedAt || appeal.status === 'pending') return;
    const listing = appeal.listing.getEntity();
    const approved = appeal.status === 'approved';
    await this.mail.send({
      key: `listing-appeal-${appeal.id}.${event.id}`,
      to: owner.email,
      subject: approved ? `Your listing "${listing.title}" is back` : `Your appeal about "${listing.title}"`,
      text: [
        `Hello ${owner.fullName},`,
        '',
        approved
          ? `Our team has read your appeal and restored your listing "${listing.title}".`
          : `Our team has read your appeal and the listing "${listing.title}" stays hidden. The reason we gave:`,
        ...(approved ? [] : [appeal.declineReason ?? '(none given)', '', 'You can now delete the listing from My Listings if you wish.']),
        '',
        `${this.config.publicUrl}/listing/${listing.id}`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }
}

interface CaseRow {
  id: string;
  status: ListingStatus;
  removed_with_seller: boolean;
  removal_reason: string | null;
  removed_at: string | Date | null;
  removal_closed_at: string | Date | null;
  appeal_text: string | null;
  appeal_status: ListingAppeal['status'] | null;
  decline_reason: string | null;
  appeal_created_at: string | Date | null;
  decided_at: string | Date | null;
}

type CaseListing = Pick<Listing, 'status' | 'removedWithSeller' | 'removalReason' | 'removedAt' | 'removalClosedAt'>;
type CaseAppeal = Pick<ListingAppeal, 'text' | 'status' | 'declineReason' | 'createdAt' | 'decidedAt'>;

function moderationView(listing: CaseListing, appeal: CaseAppeal | null): ListingModerationView {
  const hiddenByStaff = listing.status === 'removed' && !listing.removedWithSeller;
  return {
    hidden: listing.status === 'removed',
    hidden_with_account: listing.status === 'removed' && listing.removedWithSeller,
    reason: hiddenByStaff ? (listing.removalReason ?? null) : null,
    hidden_at: hiddenByStaff ? (listing.removedAt?.toISOString() ?? null) : null,
    case_closed: Boolean(listing.removalClosedAt),
    may_appeal: hiddenByStaff && !appeal && !listing.removalClosedAt,
    may_delete: listing.status !== 'removed' || Boolean(listing.removalClosedAt),
    appeal: appeal
      ? {
          text: appeal.text,
          status: appeal.status,
          decline_reason: appeal.declineReason ?? null,
          created_at: appeal.createdAt.toISOString(),
          decided_at: appeal.decidedAt?.toISOString() ?? null,
        }
      : null,
  };
}
