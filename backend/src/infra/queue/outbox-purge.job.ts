import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ScheduledJob } from './job-registry.js';

/** Done outbox entries are kept this long (to trace what happened to an event), then removed. */
export const OUTBOX_RETENTION_DAYS = 7;
const PURGE_BATCH = 5_000;

@Injectable()
export class OutboxPurgeJob {
  private readonly logger = new Logger('Outbox');

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  @ScheduledJob({ name: 'outbox.purge', queue: 'maintenance', everyMs: 60 * 60_000 })
  async purge(): Promise<void> {
    let removed = 0;
    for (;;) {
      // In batches, so a large backlog never holds a long lock.
      const rows = await this.em.getConnection().execute<{ id: string }[]>(
        `delete from outbox_job where id in (
           select id from outbox_job where completed_at < now() - make_interval(days => ?) limit ?)
         returning id`,
        [OUTBOX_RETENTION_DAYS, PURGE_BATCH],
      );
      removed += rows.length;
      if (rows.length < PURGE_BATCH) break;
    }
    if (removed > 0) this.logger.log(`purged ${removed} outbox entries done more than ${OUTBOX_RETENTION_DAYS} days ago`);
  }
}
