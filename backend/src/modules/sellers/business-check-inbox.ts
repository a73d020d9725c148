import { EntityManager } from '@mikro-orm/postgresql';
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
import { User } from '../users/user.entity.js';
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

  protected async toItem(check: BusinessVerification): Promise<InboxItem> {
    const seller = await this.em.fork().findOne(User, { id: check.seller });
    return {
      ...this.tracked(check),
      subject: `Business check (${check.status}): ${check.businessName}`,
      from: seller && !seller.deletedAt ? { name: seller.fullName, email: seller.email } : null,
      preview: [check.companyNumber && `Company ${check.companyNumber}`, check.vatNumber && `VAT GB${check.vatNumber}`]
        .filter(Boolean)
        .join(', '),
      category: null,
      categoryLabel: null,
      rating: null,
      target: seller ? { kind: 'user', id: seller.id, label: seller.fullName } : null,
    };
  }

  protected async toDetail(check: BusinessVerification): Promise<InboxItemDetail> {
    return {
      ...(await this.toItem(check)),
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
    const seller = await tx.findOne(User, { id: check.seller });
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
