import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Initial } from './Migration20261121000000_initial.js';
import { Migration20261122010640_events_outbox } from './Migration20261122010640_events_outbox.js';
import { Migration20261122020000ApiRateLimit } from './Migration20261122020000_api_rate_limit.js';
import { Migration20261122032721_accounts } from './Migration20261122032721_accounts.js';
import { Migration20261122034155_listings } from './Migration20261122034155_listings.js';
import { Migration20261122042517_images } from './Migration20261122042517_images.js';
import { Migration20261122071321_notifications } from './Migration20261122071321_notifications.js';

/** Migrations in the order they apply; written by `npm run migration:create`, so the compiled app needs no file discovery. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000Initial },
  { name: 'Migration20261122010640_events_outbox', class: Migration20261122010640_events_outbox },
  { name: 'Migration20261122020000_api_rate_limit', class: Migration20261122020000ApiRateLimit },
  { name: 'Migration20261122032721_accounts', class: Migration20261122032721_accounts },
  { name: 'Migration20261122034155_listings', class: Migration20261122034155_listings },
  { name: 'Migration20261122042517_images', class: Migration20261122042517_images },
  { name: 'Migration20261122071321_notifications', class: Migration20261122071321_notifications },
];
