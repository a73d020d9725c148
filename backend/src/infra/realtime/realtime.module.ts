import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { DATABASE_URL } from '../database/database.module.js';
import { ormEntities } from '../database/entities.js';
import { RealtimeEventCursor, RealtimeEventEntry } from './event-log.entity.js';
import { RealtimeEventLog } from './event-log.js';
import { createRealtimeBus, type RealtimeBus } from './realtime-bus.js';
import { Realtime } from './realtime.js';
import { RealtimeGateway } from './realtime.gateway.js';

export const REALTIME_BUS = Symbol('REALTIME_BUS');

/** Evaluated at import, so the migration tooling sees the entities. */
const EVENT_LOG_ENTITIES = ormEntities([RealtimeEventEntry, RealtimeEventCursor]);

/**
 * Realtime in both process kinds: the gateway where sockets are held (web), the bus emitter
 * where they are not (worker).
 */
@Global()
@Module({})
export class RealtimeModule {
  static forRoot(options: { gateway: boolean }): DynamicModule {
    return {
      module: RealtimeModule,
      imports: [EVENT_LOG_ENTITIES],
      providers: [
        RealtimeEventLog,
        {
          provide: REALTIME_BUS,
          inject: [APP_CONFIG, DATABASE_URL],
          useFactory: (config: AppConfig, databaseUrl: string) => createRealtimeBus(config, databaseUrl),
        },
        {
          provide: Realtime,
          inject: [REALTIME_BUS, RealtimeEventLog],
          useFactory: (bus: RealtimeBus, log: RealtimeEventLog) => {
            const realtime = new Realtime(log);
            realtime.busKind = bus.kind;
            if (!options.gateway && bus.kind !== 'memory') realtime.attach(bus.emitter());
            return realtime;
          },
        },
        {
          // Closes the bus's connections after the server is gone.
          provide: 'REALTIME_BUS_CLOSER',
          inject: [REALTIME_BUS],
          useFactory: (bus: RealtimeBus) => ({ onApplicationShutdown: () => bus.close() }),
        },
        ...(options.gateway ? [RealtimeGateway] : []),
      ],
      exports: [Realtime, REALTIME_BUS, RealtimeEventLog],
    };
  }
}
