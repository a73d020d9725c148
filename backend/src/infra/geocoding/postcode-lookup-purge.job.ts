import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { deleteInBatches } from '../database/batched-delete.js';
import { ScheduledJob } from '../queue/job-registry.js';
import { POSTCODE_CACHE_DAYS, POSTCODE_MISS_CACHE_MINUTES } from './postcodes-io-geocoder.js';

/**
 * postcodes.io's answers are kept only as long as they are used (PostcodesIoGeocoder reads a
 * found code for POSTCODE_CACHE_DAYS, an unknown one for POSTCODE_MISS_CACHE_MINUTES): older rows
 * are removed, so the table holds what searchers typed lately, not every code ever typed.
 */
@Injectable()
export class PostcodeLookupPurgeJob {
  private readonly logger = new Logger('Postcodes');

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  @ScheduledJob({ name: 'postcodes.purge-lookups', queue: 'maintenance', everyMs: 60 * 60_000 })
  async purge(): Promise<void> {
    // Found through the index on looked_up_at.
    const removed = await deleteInBatches(this.em, {
      table: 'postcode_lookup',
      key: 'code',
      where: 'looked_up_at < now() - make_interval(mins => ?) and (not found or looked_up_at < now() - make_interval(days => ?))',
      params: [POSTCODE_MISS_CACHE_MINUTES, POSTCODE_CACHE_DAYS],
    });
    if (removed > 0) this.logger.log(`removed ${removed} postcode answers past their time`);
  }
}
