import { EntityManager, type FilterQuery, type QueryOrderMap } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { REPORT_REASONS, type ReportReason, RESPONSE_HOURS } from '../../contracts/staff.js';
import { type InboxItem, type InboxItemDetail, InboxSourceBase, InboxSources } from '../staff/inbox/inbox-source.js';
import { Report } from './report.entity.js';

const TARGET_LABELS: Record<Report['targetKind'], string> = { listing: 'Listing', user: 'Profile', review: 'Review' };

/** Reports in the staff inbox (listing review: within 24 hours); the category is the reason. */
@Injectable()
export class ReportsInbox extends InboxSourceBase<Report> {
  readonly kind = 'report' as const;
  protected readonly entity = Report;
  protected readonly responseHours = RESPONSE_HOURS.report;

  constructor(@Inject(EntityManager) em: EntityManager, @Inject(InboxSources) registry: InboxSources) {
    super(em, registry);
  }

  protected override categoryWhere(category: string): FilterQuery<Report> | undefined {
    return category in REPORT_REASONS ? { reason: category as ReportReason } : undefined;
  }

  /** With the reporter, whose name and address the item shows. */
  protected override load(
    em: EntityManager,
    where: FilterQuery<Report>,
    options: { orderBy?: QueryOrderMap<Report>; limit?: number },
  ): Promise<Report[]> {
    return em.find(Report, where, { ...options, populate: ['reporter'] });
  }

  protected toItem(report: Report): InboxItem {
    const reporter = report.reporter.getEntity();
    const what = report.targetKind === 'user' ? 'profile' : report.targetKind;
    return {
      ...this.tracked(report),
      subject: `Report of ${what} "${report.targetLabel}": ${REPORT_REASONS[report.reason]}`,
      from: reporter.deletedAt ? null : { name: reporter.fullName, email: reporter.email },
      preview: (report.details ?? '').slice(0, 140),
      category: report.reason,
      categoryLabel: REPORT_REASONS[report.reason],
      rating: null,
      target: { kind: report.targetKind, id: report.targetId, label: report.targetLabel },
    };
  }

  protected toDetail(report: Report): InboxItemDetail {
    const item = this.toItem(report);
    return {
      ...item,
      body: report.details || '(no details given)',
      fields: [
        { label: 'Reason', value: REPORT_REASONS[report.reason] },
        { label: TARGET_LABELS[report.targetKind], value: report.targetLabel },
        { label: 'Reported by', value: item.from ? `${item.from.name} <${item.from.email}>` : 'a deleted account' },
      ],
    };
  }
}
