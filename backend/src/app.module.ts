import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from './config/config.module.js';
import type { AppConfig } from './config/env.js';
import { type Clock, ClockModule } from './infra/clock/clock.js';
import { DatabaseModule } from './infra/database/database.module.js';
import { declaredEntities, type EntityClass } from './infra/database/entities.js';
import { MailModule } from './infra/mail/mail.module.js';
import { MetricsModule } from './infra/metrics/metrics.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import { RealtimeModule } from './infra/realtime/realtime.module.js';
import { RateLimitModule } from './infra/rate-limit/rate-limit.module.js';
import { StorageModule } from './infra/storage/storage.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { CategoriesModule } from './modules/categories/categories.module.js';
import { ContactModule } from './modules/contact/contact.module.js';
import { FeedbackModule } from './modules/feedback/feedback.module.js';
import { ReviewsModule } from './modules/reviews/reviews.module.js';
import { StoriesModule } from './modules/stories/stories.module.js';
import { SellersModule } from './modules/sellers/sellers.module.js';
import { ImagesModule } from './modules/images/images.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { ListingsModule } from './modules/listings/listings.module.js';
import { MessagingModule } from './modules/messaging/messaging.module.js';
import { NewsletterModule } from './modules/newsletter/newsletter.module.js';
import { LiveDiagnosticsModule } from './modules/notifications/diagnostics.module.js';
import { NotificationsModule } from './modules/notifications/notifications.module.js';
import { ProfileModule } from './modules/profile/profile.module.js';
import { SavedSearchesModule } from './modules/saved-searches/saved-searches.module.js';
import { RetentionModule } from './modules/retention/retention.module.js';
import { ReportsModule } from './modules/reports/reports.module.js';
import { InboxModule } from './modules/staff/inbox/inbox.module.js';
import { StaffModule } from './modules/staff/staff.module.js';
import { UsersModule } from './modules/users/users.module.js';

/**
 * `web`: HTTP API, socket.io and pages (and the workers too when `runWorkers`).
 * `worker`: the same modules with no HTTP, consuming the queues.
 */
export type AppMode = { kind: 'web'; runWorkers: boolean } | { kind: 'worker' };

/** The domain modules, identical in both modes: each declares its controllers, entities, subscribers and schedules. */
const DOMAIN_MODULES = [
  UsersModule,
  InboxModule,
  AuthModule,
  ProfileModule,
  RetentionModule,
  CategoriesModule,
  ImagesModule,
  ListingsModule,
  MessagingModule,
  NotificationsModule,
  SavedSearchesModule,
  ContactModule,
  FeedbackModule,
  StoriesModule,
  ReviewsModule,
  SellersModule,
  NewsletterModule,
  ReportsModule,
  StaffModule,
  HealthModule,
];

@Module({})
export class AppModule {
  /** `clock`: the time the rules measured in months and years read (a test's controlled clock; else the system's). */
  static forRoot(config: AppConfig, databaseUrl: string, mode: AppMode, clock?: Clock): DynamicModule {
    const web = mode.kind === 'web';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ClockModule.forRoot(clock),
        DatabaseModule.forRoot(databaseUrl, config.database.replicaUrl),
        QueueModule.forRoot({ runWorkers: mode.kind === 'worker' || mode.runWorkers }),
        RealtimeModule.forRoot({ gateway: web }),
        RateLimitModule,
        MailModule,
        StorageModule,
        MetricsModule,
        ...DOMAIN_MODULES,
        ...(config.diagnosticRoutes ? [LiveDiagnosticsModule] : []),
      ],
    };
  }
}

/** Every entity of the application, as its modules declare them; for the migration tooling and the schema test. */
export function appEntities(): EntityClass[] {
  return declaredEntities();
}
