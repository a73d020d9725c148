import type { EntityManager } from '@mikro-orm/postgresql';
import type { DomainEvents } from '../../infra/queue/domain-events.service.js';

/**
 * E-mails a sending job sends (SavedSearchMail.sendMails): what they show is read once for all of them (a handful of
 * statements instead of about ten a mail), and a job retried after a crash sends at most these again, each under its
 * first sending's Message-ID.
 */
export const MAILS_PER_JOB = 20;

/** Publishes, in `tx`, the e-mails of these batches (saved_search_mail_part's batch_id) to be sent, MAILS_PER_JOB a job. */
export function publishMailsDue(events: DomainEvents, tx: EntityManager, kind: 'instant' | 'daily' | 'weekly', batchIds: string[]): void {
  for (let i = 0; i < batchIds.length; i += MAILS_PER_JOB) {
    events.publish(tx, 'saved-search.mails-due', { kind, batchIds: batchIds.slice(i, i + MAILS_PER_JOB) });
  }
}
