import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Initial } from './Migration20261121000000_initial.js';
import { Migration20261122010640_events_outbox } from './Migration20261122010640_events_outbox.js';
import { Migration20261122020000ApiRateLimit } from './Migration20261122020000_api_rate_limit.js';
import { Migration20261122032721_accounts } from './Migration20261122032721_accounts.js';
import { Migration20261122034155_listings } from './Migration20261122034155_listings.js';
import { Migration20261122042517_images } from './Migration20261122042517_images.js';
import { Migration20261122071133_feedback } from './Migration20261122071133_feedback.js';
import { Migration20261122071206_staff_and_reports } from './Migration20261122071206_staff_and_reports.js';
import { Migration20261122071321_notifications } from './Migration20261122071321_notifications.js';
import { Migration20261122071432_inactivity_warning } from './Migration20261122071432_inactivity_warning.js';
import { Migration20261122071552_messaging } from './Migration20261122071552_messaging.js';
import { Migration20261122071843_newsletter } from './Migration20261122071843_newsletter.js';
import { Migration20261122081127_feedback_inbox } from './Migration20261122081127_feedback_inbox.js';
import { Migration20261125163000_listing_terms } from './Migration20261125163000_listing_terms.js';
import { Migration20261125163835_listing_geo_cells } from './Migration20261125163835_listing_geo_cells.js';
import { Migration20261125200000_listing_term_rank } from './Migration20261125200000_listing_term_rank.js';
import { Migration20261126040000_session_second_factor } from './Migration20261126040000_session_second_factor.js';
import { Migration20261126041000_over_eighteen } from './Migration20261126041000_over_eighteen.js';
import { Migration20261126042000_notification_about_user } from './Migration20261126042000_notification_about_user.js';
import { Migration20261126042100_booking_request_dates } from './Migration20261126042100_booking_request_dates.js';
import { Migration20261126115000_success_stories } from './Migration20261126115000_success_stories.js';

/** Migrations in the order they apply; written by `npm run migration:create`, so the compiled app needs no file discovery. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000Initial },
  { name: 'Migration20261122010640_events_outbox', class: Migration20261122010640_events_outbox },
  { name: 'Migration20261122020000_api_rate_limit', class: Migration20261122020000ApiRateLimit },
  { name: 'Migration20261122032721_accounts', class: Migration20261122032721_accounts },
  { name: 'Migration20261122034155_listings', class: Migration20261122034155_listings },
  { name: 'Migration20261122042517_images', class: Migration20261122042517_images },
  { name: 'Migration20261122071133_feedback', class: Migration20261122071133_feedback },
  { name: 'Migration20261122071206_staff_and_reports', class: Migration20261122071206_staff_and_reports },
  { name: 'Migration20261122071321_notifications', class: Migration20261122071321_notifications },
  { name: 'Migration20261122071432_inactivity_warning', class: Migration20261122071432_inactivity_warning },
  { name: 'Migration20261122071552_messaging', class: Migration20261122071552_messaging },
  { name: 'Migration20261122071843_newsletter', class: Migration20261122071843_newsletter },
  { name: 'Migration20261122081127_feedback_inbox', class: Migration20261122081127_feedback_inbox },
  { name: 'Migration20261125163000_listing_terms', class: Migration20261125163000_listing_terms },
  { name: 'Migration20261125163835_listing_geo_cells', class: Migration20261125163835_listing_geo_cells },
  { name: 'Migration20261125200000_listing_term_rank', class: Migration20261125200000_listing_term_rank },
  { name: 'Migration20261126040000_session_second_factor', class: Migration20261126040000_session_second_factor },
  { name: 'Migration20261126041000_over_eighteen', class: Migration20261126041000_over_eighteen },
  { name: 'Migration20261126042000_notification_about_user', class: Migration20261126042000_notification_about_user },
  { name: 'Migration20261126042100_booking_request_dates', class: Migration20261126042100_booking_request_dates },
  { name: 'Migration20261126115000_success_stories', class: Migration20261126115000_success_stories },
];
