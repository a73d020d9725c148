import { Inject, Injectable } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { SavedSearchesService } from './saved-searches.service.js';

/** Saved searches' part in an account's end. */
@Injectable()
export class SavedSearchesSubscriber {
  constructor(@Inject(SavedSearchesService) private readonly searches: SavedSearchesService) {}

  /** A deleted account's saved searches and what they were told go with it. */
  @OnDomainEvent('user.deleted', { name: 'saved-searches.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.searches.forget(event.payload.userId);
  }
}
