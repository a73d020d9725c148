import { EntityManager, type FilterQuery, type QueryOrderMap } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import {
  applyDecision,
  decisionOf,
  type InboxDecisionKind,
  type InboxItem,
  type InboxItemDetail,
  InboxSourceBase,
  InboxSources,
} from '../staff/inbox/inbox-source.js';
import { BusinessVerification } from './business-verification.entity.js';

/** Requests for a business check in the staff inbox: staff check the details (Companies House, HMRC) and approve or decline. */
@Injectable()
export class BusinessCheckInbox extends InboxSourceBase<BusinessVerification> {
  readonly kind = 'business' as const;
  protected readonly entity = BusinessVerification;
  protected readonly responseHours = RESPONSE_HOURS.business;

  constructor(
    @Inject(EntityManager) em: EntityManager,
    @Inject(InboxSources) registry: InboxSources,
    @Inject(DomainEvents) private readonly events: DomainEvents,
  ) {
    super(em, registry);
  }

  /** With the seller, whose name and address the item shows (one query for a page, not one per item). */
  protected override load(
    em: EntityManager,
    where: FilterQuery<BusinessVerification>,
    options: { orderBy?: QueryOrderMap<BusinessVerification>; limit?: number },
  ): Promise<BusinessVerification[]> {
    return em.find(BusinessVerification, where, { ...options, populate: ['seller'] });
  }

  protected toItem(check: BusinessVerification): InboxItem {
    const seller = check.seller.getEntity();
    return {
      ...this.tracked(check),
      subject: `Business check (${check.status}): ${check.businessName}`,
      from: seller.deletedAt ? null : { name: seller.fullName, email: seller.email },
      preview: [check.companyNumber && `Company ${check.companyNumber}`, check.vatNumber && `VAT GB${check.vatNumber}`]
        .filter(Boolean)
        .join(', '),
      category: null,
      categoryLabel: null,
      rating: null,
      target: { kind: 'user', id: seller.id, label: seller.fullName },
    };
  }

  protected toDetail(check: BusinessVerification): InboxItemDetail {
    return {
      ...this.toItem(check),
      body: 'Check the business on the Companies House register and the VAT number with HMRC before approving.',
      fields: [
        { label: 'Business name', value: check.businessName },
        { label: 'Companies House number', value: check.companyNumber ?? 'not given' },
        { label: 'VAT number', value: check.vatNumber ? `GB${check.vatNumber}` : 'not given' },
      ],
      decision: decisionOf(check),
    };
  }

  /** Approving marks the account verified, if its details are still those asked about. */
  async decide(tx: EntityManager, id: string, decision: InboxDecisionKind, reason: string | undefined): Promise<boolean> {
    const [check] = await this.load(tx, { id }, { limit: 1 });
    if (!check) return false;
    const now = new Date();
    applyDecision(check, decision, reason, now);
    const seller = check.seller.getEntity();
    const same =
      seller?.sellerType === 'trade' &&
      seller.businessName === check.businessName &&
      (seller.companyNumber ?? null) === (check.companyNumber ?? null) &&
      (seller.vatNumber ?? null) === (check.vatNumber ?? null);
    if (seller && same) seller.businessVerifiedAt = decision === 'approve' ? now : null;
    this.events.publish(tx, 'seller.business-check-decided', { verificationId: check.id });
    await tx.flush();
    return true;
  }
}
