import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { deleteInBatches } from '../database/batched-delete.js';
import { ScheduledJob } from './job-registry.js';

/** Done outbox entries are kept this long (to trace what happened to an event), then removed. */
export const OUTBOX_RETENTION_DAYS = 7;

@Injectable()
export class OutboxPurgeJob {
  private readonly logger = new Logger('Outbox');

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  @ScheduledJob({ name: 'outbox.purge', queue: 'maintenance', everyMs: 60 * 60_000 })
  async purge(): Promise<void> {
    const removed = await deleteInBatches(this.em, {
      table: 'outbox_job',
      key: 'id',
      where: 'completed_at < now() - make_interval(days => ?)',
      params: [OUTBOX_RETENTION_DAYS],
    });
    if (removed > 0) this.logger.log(`purged ${removed} outbox entries done more than ${OUTBOX_RETENTION_DAYS} days ago`);
  }
}
