import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHmac, hkdfSync } from 'node:crypto';
import { clientKey } from '../../common/api-rate-limit.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { loadSecretBoxKey } from '../../infra/crypto/secret-box.js';
import { ScheduledJob } from '../../infra/queue/job-registry.js';

/** Who asks: a signed-in user (their id) or a visitor, known by address. */
export interface Viewer {
  userId?: string;
  ip: string;
}

/**
 * Counts a listing's views at most once per visitor per day, without keeping addresses. A visitor
 * is a signed-in account, or else an address (an IPv6 one by its /64 network, as rate limits count
 * it): nothing the client chooses, such as its User-Agent, makes it a new visitor. It is kept as a
 * keyed hash with a key that changes every day, so yesterday's visitors cannot be linked to
 * today's (or to an address).
 */
@Injectable()
export class ListingViews implements OnModuleInit {
  private masterKey!: Buffer;

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const key = await loadSecretBoxKey(this.config.twoFactorKey, this.config.dataDir);
    this.masterKey = Buffer.from(hkdfSync('sha256', key, 'fieldmarket', 'listing views', 32));
  }

  /** True when this is the visitor's first view of the listing today (the caller adds it to the count). */
  async count(listingId: string, viewer: Viewer): Promise<boolean> {
    const day = new Date().toISOString().slice(0, 10);
    const dayKey = createHmac('sha256', this.masterKey).update(day).digest();
    const visitor = createHmac('sha256', dayKey)
      .update(viewer.userId ? `user:${viewer.userId}` : `address:${clientKey(viewer.ip)}`)
      .digest('hex')
      .slice(0, 32);
    const rows = await this.em.getConnection().execute<Array<{ views: number }>>(
      `with first_view as (
         insert into listing_view (listing_id, visitor, day) values (?, ?, ?::date) on conflict do nothing returning listing_id)
       update listing set views = views + 1 where id in (select listing_id from first_view) returning views`,
      [listingId, visitor, day],
    );
    return rows.length === 1;
  }

  /** Yesterday's visitors are kept one more day (time zones), then forgotten. */
  @ScheduledJob({ name: 'listings.forget-views', queue: 'maintenance', everyMs: 6 * 3600_000 })
  async forgetOldViews(): Promise<void> {
    await this.em.getConnection().execute(`delete from listing_view where day < current_date - 1`);
  }
}
