import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { REPORTS_PER_HOUR, STAFF_TEXTS } from '../../contracts/staff.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { ListingModeration } from '../listings/listing-moderation.js';
import { ReviewModeration } from '../reviews/review-moderation.js';
import { AccountStanding } from '../users/account-standing.js';
import type { User } from '../users/user.entity.js';
import type { ReportReceivedResponse, ReportRequest } from './dto/report.request.js';
import { Report } from './report.entity.js';

@Injectable()
export class ReportsService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(ListingModeration) private readonly listings: ListingModeration,
    @Inject(AccountStanding) private readonly accounts: AccountStanding,
    @Inject(ReviewModeration) private readonly reviews: ReviewModeration,
  ) {}

  /** Stores a report of a live listing, a shown profile or a shown review, once per reporter and target while it is open. */
  async report(reporter: User, request: ReportRequest): Promise<ReportReceivedResponse> {
    const target = await this.targetOf(request);
    if (!target) throw new NotFoundException(STAFF_TEXTS.reportNotFound);
    if (target.ownerId === reporter.id) throw new BadRequestException(STAFF_TEXTS.cannotReportOwn);
    const open = await this.em.count(Report, {
      reporter: reporter.id,
      targetKind: request.target_kind,
      targetId: target.id,
      archivedAt: null,
    });
    if (open > 0) throw new ConflictException(STAFF_TEXTS.alreadyReported);
    await this.limits.consume(
      { key: `report:user:${reporter.id}`, limit: REPORTS_PER_HOUR, windowSeconds: 3600 },
      () => STAFF_TEXTS.tooManyReports,
    );
    try {
      const id = await this.em.transactional(async (tx) => {
        const report = tx.create(Report, {
          reporter: reporter.id,
          targetKind: request.target_kind,
          targetId: target.id,
          targetLabel: target.label.slice(0, 200),
          reason: request.reason,
          details: request.details || undefined,
          createdAt: new Date(),
        });
        tx.persist(report);
        this.events.publish(tx, 'report.received', { reportId: report.id });
        return report.id;
      });
      return { id, message: STAFF_TEXTS.reportReceived };
    } catch (error) {
      // Two reports of the same thing at once: the index keeps one.
      if (error instanceof UniqueConstraintViolationException) throw new ConflictException(STAFF_TEXTS.alreadyReported);
      throw error;
    }
  }

  private async targetOf(request: ReportRequest): Promise<{ id: string; label: string; ownerId: string | null } | null> {
    if (request.target_kind === 'listing') {
      const listing = await this.listings.reportable(request.target_id);
      return listing && { id: listing.id, label: listing.title, ownerId: listing.sellerId };
    }
    if (request.target_kind === 'review') return this.reviews.reportable(request.target_id);
    const person = await this.accounts.reportable(request.target_id);
    return person && { id: person.id, label: person.name, ownerId: person.id };
  }
}
