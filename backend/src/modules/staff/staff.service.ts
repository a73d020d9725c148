import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { INBOX_KINDS, type InboxStatus, STAFF_TEXTS } from '../../contracts/staff.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { Sessions } from '../auth/sessions.service.js';
import { ListingModeration, type ListingModerationSummary } from '../listings/listing-moderation.js';
import { ReviewModeration } from '../reviews/review-moderation.js';
import { AccountStanding, type AccountSummary } from '../users/account-standing.js';
import type { User } from '../users/user.entity.js';
import type { InboxQuery } from './dto/staff.request.js';
import type {
  AccountModerationResponse,
  AuditEntryResponse,
  InboxItemDetailResponse,
  InboxItemResponse,
  InboxPage,
  InboxReplyResponse,
  InboxSummaryResponse,
  ListingModerationResponse,
  StaffMemberResponse,
} from './dto/staff.response.js';
import { InboxReply } from './inbox-reply.entity.js';
import { type InboxDecisionKind, type InboxItem, type InboxSource, InboxSources } from './inbox/inbox-source.js';
import { FieldValidationException } from '../../common/errors.js';
import { StaffAction } from './staff-action.entity.js';

const PAGE = 50;

/**
 * The staff inbox over every registered source, and moderation. Every change (an inbox item's
 * read, archive, assignment, reply or deletion; moderation through the listings and users
 * modules' own methods) is written in one transaction with its audit entry.
 */
@Injectable()
export class StaffService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(InboxSources) private readonly sources: InboxSources,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(ListingModeration) private readonly listings: ListingModeration,
    @Inject(AccountStanding) private readonly accounts: AccountStanding,
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(ReviewModeration) private readonly reviews: ReviewModeration,
  ) {}

  // ----- The inbox -----

  async inbox(query: InboxQuery, me: User): Promise<InboxPage> {
    const chosen = query.kind ? [this.source(query.kind)] : this.sources.all();
    const filter = {
      status: (query.status ?? 'open') as InboxStatus,
      category: query.category,
      rating: query.rating,
      assignedToId: query.assigned === 'me' ? me.id : query.assigned,
      before: query.before ? new Date(query.before) : undefined,
      limit: PAGE + 1,
    };
    const items = (await Promise.all(chosen.map((source) => source.list(filter))))
      .flat()
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
    const page = items.slice(0, PAGE);
    const names = await this.staffNames();
    return {
      items: page.map((item) => itemResponse(item, names)),
      next_before: items.length > PAGE ? (page.at(-1) as InboxItem).createdAt.toISOString() : null,
    };
  }

  async summary(): Promise<InboxSummaryResponse> {
    const counts = await Promise.all(this.sources.all().map((source) => source.waiting()));
    counts.sort((a, b) => INBOX_KINDS.indexOf(a.kind) - INBOX_KINDS.indexOf(b.kind));
    return {
      kinds: counts.map(({ kind, open, unread, overdue, responseHours }) => ({
        kind,
        open,
        unread,
        overdue,
        response_hours: responseHours,
      })),
    };
  }

  async detail(kind: string, id: string): Promise<InboxItemDetailResponse> {
    const item = await this.source(kind).get(id);
    if (!item) throw new NotFoundException(STAFF_TEXTS.itemNotFound);
    const replies = await this.em.fork().find(InboxReply, { itemKind: kind, itemId: id }, { orderBy: { createdAt: 'asc' } });
    const targets = [
      { targetKind: kind, targetId: id },
      ...(item.target ? [{ targetKind: item.target.kind, targetId: item.target.id }] : []),
    ];
    const audit = await this.em.fork().find(StaffAction, { $or: targets }, { orderBy: { createdAt: 'desc' }, limit: 100 });
    const listing = item.target?.kind === 'listing' ? await this.listings.summary(item.target.id) : null;
    const review = item.target?.kind === 'review' ? await this.reviews.summary(item.target.id) : null;
    const account =
      item.target?.kind === 'user'
        ? await this.accounts.summary(item.target.id)
        : listing
          ? await this.accounts.summary(listing.sellerId)
          : null;
    return {
      ...itemResponse(item, await this.staffNames()),
      body: item.body,
      fields: item.fields,
      replies: replies.map(replyResponse),
      audit: audit.map(auditResponse),
      listing: listing && listingResponse(listing),
      review: review && {
        id: review.id,
        stars: review.stars,
        text: review.text,
        author_name: review.authorName,
        reviewed_id: review.reviewedId,
        hidden: review.hidden,
      },
      account: account && accountResponse(account),
      decision: item.decision ?? null,
    };
  }

  /** Approves or declines an item that is decided (a success story): audited; a decline needs its reason, which the author is sent. */
  async decide(me: User, kind: string, id: string, decision: InboxDecisionKind, reason: string | undefined): Promise<void> {
    const source = this.source(kind);
    if (!source.decide) throw new BadRequestException(STAFF_TEXTS.notDecided);
    if (decision === 'decline' && !reason) throw new FieldValidationException({ reason: STAFF_TEXTS.declineNeedsReason });
    await this.em.transactional(async (tx) => {
      this.found(await source.decide!(tx, id, decision, reason));
      await this.record(tx, me, `${kind}.${decision}`, kind, id, reason);
    });
  }

  async setRead(me: User, kind: string, id: string, read: boolean): Promise<void> {
    const source = this.source(kind);
    await this.em.transactional(async (tx) => {
      this.found(await source.setRead(tx, id, read));
      await this.record(tx, me, read ? 'inbox.read' : 'inbox.unread', kind, id);
    });
  }

  async setArchived(me: User, kind: string, id: string, archived: boolean): Promise<void> {
    const source = this.source(kind);
    await this.em.transactional(async (tx) => {
      this.found(await source.setArchived(tx, id, archived));
      await this.record(tx, me, archived ? 'inbox.archive' : 'inbox.unarchive', kind, id);
    });
  }

  async assign(me: User, kind: string, id: string, staffId: string | null): Promise<void> {
    const source = this.source(kind);
    if (staffId !== null && !(await this.accounts.isStaff(staffId))) throw new BadRequestException(STAFF_TEXTS.notStaffMember);
    const name = staffId ? (await this.staffNames()).get(staffId) : undefined;
    await this.em.transactional(async (tx) => {
      this.found(await source.assign(tx, id, staffId));
      await this.record(tx, me, staffId ? 'inbox.assign' : 'inbox.unassign', kind, id, name ? `to ${name}` : undefined);
    });
  }

  /** The item, its replies and the audit entry go together. */
  async delete(me: User, kind: string, id: string): Promise<void> {
    const source = this.source(kind);
    await this.em.transactional(async (tx) => {
      this.found(await source.delete(tx, id));
      await tx.nativeDelete(InboxReply, { itemKind: kind, itemId: id });
      await this.record(tx, me, 'inbox.delete', kind, id);
    });
  }

  /** Stores the reply and queues its e-mail (inbox.reply-queued) in one transaction; the item counts as read. */
  async reply(me: User, kind: string, id: string, message: string): Promise<InboxReplyResponse> {
    const source = this.source(kind);
    const item = await source.get(id);
    if (!item) throw new NotFoundException(STAFF_TEXTS.itemNotFound);
    if (!item.from) throw new BadRequestException('There is no address to reply to: the sender deleted their account.');
    const to = item.from;
    const reply = await this.em.transactional(async (tx) => {
      const stored = tx.create(InboxReply, {
        itemKind: kind,
        itemId: id,
        staffId: me.id,
        staffName: me.fullName,
        toEmail: to.email,
        toName: to.name,
        subject: `Re: ${item.subject}`.slice(0, 250),
        body: message,
        createdAt: new Date(),
      });
      tx.persist(stored);
      await source.setRead(tx, id, true);
      await this.record(tx, me, 'inbox.reply', kind, id);
      this.events.publish(tx, 'inbox.reply-queued', { replyId: stored.id });
      return stored;
    });
    return replyResponse(reply);
  }

  async members(me: User): Promise<StaffMemberResponse[]> {
    return (await this.accounts.staffMembers()).map((m) => ({ id: m.id, name: m.name, is_me: m.id === me.id }));
  }

  async audit(targetKind?: string, targetId?: string): Promise<AuditEntryResponse[]> {
    const where = targetKind && targetId ? { targetKind, targetId } : {};
    const entries = await this.em.fork().find(StaffAction, where, { orderBy: { createdAt: 'desc' }, limit: 100 });
    return entries.map(auditResponse);
  }

  // ----- Moderation -----

  async listing(id: string): Promise<ListingModerationResponse> {
    const listing = await this.listings.summary(id);
    if (!listing) throw new NotFoundException('Listing Not Found');
    return listingResponse(listing);
  }

  async hideListing(me: User, id: string, reason: string): Promise<ListingModerationResponse> {
    return this.moderateListing(me, id, 'listing.hide', (tx) => this.listings.hide(tx, id, reason), reason);
  }

  async restoreListing(me: User, id: string, reason?: string): Promise<ListingModerationResponse> {
    return this.moderateListing(me, id, 'listing.restore', (tx) => this.listings.restore(tx, id), reason);
  }

  /** Upholds the hiding without an appeal: the case closes, the owner is told and may then delete it. */
  async closeListingCase(me: User, id: string, reason?: string): Promise<ListingModerationResponse> {
    return this.moderateListing(me, id, 'listing.close-case', (tx) => this.listings.closeCase(tx, id), reason);
  }

  /** One change to a listing and its audit entry, in one transaction. */
  private moderateListing(
    me: User,
    id: string,
    action: string,
    change: (tx: EntityManager) => Promise<ListingModerationSummary>,
    reason?: string,
  ): Promise<ListingModerationResponse> {
    return this.em.transactional(async (tx) => {
      const listing = await change(tx);
      await this.record(tx, me, action, 'listing', id, reason);
      return listingResponse(listing);
    });
  }

  async featureListing(me: User, id: string, featured: boolean): Promise<ListingModerationResponse> {
    return this.em.transactional(async (tx) => {
      const listing = await this.listings.setFeatured(tx, id, featured);
      await this.record(tx, me, featured ? 'listing.feature' : 'listing.unfeature', 'listing', id);
      return listingResponse(listing);
    });
  }

  /** Hides a reported review (it drops out of lists and averages); its author is mailed the reason. */
  async hideReview(me: User, id: string, reason: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      await this.reviews.hide(tx, id, reason);
      await this.record(tx, me, 'review.hide', 'review', id, reason);
    });
  }

  async restoreReview(me: User, id: string, reason?: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      await this.reviews.restore(tx, id);
      await this.record(tx, me, 'review.restore', 'review', id, reason);
    });
  }

  async account(id: string): Promise<AccountModerationResponse> {
    const account = await this.accounts.summary(id);
    if (!account) throw new NotFoundException('User not found');
    return accountResponse(account);
  }

  /** Suspends: sessions ended and listings hidden in the same transaction, so nothing is half done. */
  async suspend(me: User, id: string, reason: string): Promise<AccountModerationResponse> {
    await this.em.transactional(async (tx) => {
      await this.accounts.suspend(tx, id, reason, me.id);
      const hidden = await this.listings.hideAllOf(tx, id);
      await this.sessions.endAll(id, { em: tx });
      await this.record(tx, me, 'user.suspend', 'user', id, `${reason} (${hidden} listing${hidden === 1 ? '' : 's'} hidden)`);
    });
    return this.account(id);
  }

  async unsuspend(me: User, id: string, reason?: string): Promise<AccountModerationResponse> {
    await this.em.transactional(async (tx) => {
      await this.accounts.unsuspend(tx, id);
      const restored = await this.listings.restoreAllOf(tx, id);
      const note = `${restored} listing${restored === 1 ? '' : 's'} restored`;
      await this.record(tx, me, 'user.unsuspend', 'user', id, reason ? `${reason} (${note})` : note);
    });
    return this.account(id);
  }

  /** Writes one audit entry in `em` (in the caller's transaction when it has one). */
  async record(em: EntityManager, me: User, action: string, targetKind: string, targetId: string, reason?: string): Promise<void> {
    em.persist(
      em.create(StaffAction, { staffId: me.id, staffName: me.fullName, action, targetKind, targetId, reason, createdAt: new Date() }),
    );
    await em.flush();
  }

  private source(kind: string): InboxSource {
    const source = this.sources.get(kind);
    if (!source) throw new NotFoundException(`There are no "${kind}" items in the inbox.`);
    return source;
  }

  private found(ok: boolean): void {
    if (!ok) throw new NotFoundException(STAFF_TEXTS.itemNotFound);
  }

  private async staffNames(): Promise<Map<string, string>> {
    return new Map((await this.accounts.staffMembers()).map((m) => [m.id, m.name]));
  }
}

function itemResponse(item: InboxItem, staffNames: Map<string, string>): InboxItemResponse {
  return {
    kind: item.kind,
    id: item.id,
    subject: item.subject,
    from: item.from,
    preview: item.preview,
    category: item.category,
    category_label: item.categoryLabel,
    rating: item.rating,
    created_at: item.createdAt.toISOString(),
    read: item.readAt !== null,
    archived: item.archivedAt !== null,
    assigned_to_id: item.assignedToId,
    assigned_to_name: item.assignedToId ? (staffNames.get(item.assignedToId) ?? 'Former staff member') : null,
    due_at: item.dueAt.toISOString(),
    overdue: item.archivedAt === null && item.dueAt.getTime() < Date.now(),
    target: item.target,
  };
}

function replyResponse(reply: InboxReply): InboxReplyResponse {
  return {
    id: reply.id,
    staff_name: reply.staffName,
    to: reply.toEmail,
    subject: reply.subject,
    body: reply.body,
    created_at: reply.createdAt.toISOString(),
    sent_at: reply.sentAt?.toISOString() ?? null,
  };
}

function auditResponse(entry: StaffAction): AuditEntryResponse {
  return {
    id: entry.id,
    staff_name: entry.staffName,
    action: entry.action,
    target_kind: entry.targetKind,
    target_id: entry.targetId,
    reason: entry.reason ?? null,
    created_at: entry.createdAt.toISOString(),
  };
}

function listingResponse(listing: ListingModerationSummary): ListingModerationResponse {
  return {
    id: listing.id,
    title: listing.title,
    status: listing.status,
    featured: listing.featured,
    seller_id: listing.sellerId,
    seller_name: listing.sellerName,
    removal_reason: listing.removalReason,
    removed_with_seller: listing.removedWithSeller,
    case_closed: listing.caseClosed,
    appeal_pending: listing.appealPending,
  };
}

function accountResponse(account: AccountSummary): AccountModerationResponse {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    role: account.role,
    two_factor: account.twoFactor,
    suspended_at: account.suspendedAt?.toISOString() ?? null,
    suspension_reason: account.suspensionReason,
  };
}
