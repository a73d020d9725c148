import { MikroORM } from '@mikro-orm/postgresql';
import { Global, Module, type OnApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { RateLimiter } from './rate-limiter.js';
import { createRateLimitStore, RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store.js';

export { RATE_LIMIT_STORE };

@Injectable()
class RateLimitStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}
  onApplicationShutdown(): Promise<void> {
    return this.store.close();
  }
}

/** Counters every process shares: the API-wide limit and the limits of single routes (sign-in, contact...). */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [APP_CONFIG, MikroORM],
      useFactory: (config: AppConfig, orm: MikroORM) => createRateLimitStore(config, orm),
    },
    RateLimitStoreCloser,
    RateLimiter,
  ],
  exports: [RATE_LIMIT_STORE, RateLimiter],
})
export class RateLimitModule {}
