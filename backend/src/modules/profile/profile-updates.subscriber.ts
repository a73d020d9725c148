import { Inject, Injectable } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { Realtime } from '../../infra/realtime/realtime.js';

/** Tells the user's other tabs and devices that the profile changed (SPEC §4: PROFILE_UPDATED), from wherever the job runs. */
@Injectable()
export class ProfileUpdatesSubscriber {
  constructor(@Inject(Realtime) private readonly realtime: Realtime) {}

  @OnDomainEvent('user.profile-updated', { name: 'profile.push-update', queue: 'notifications' })
  async pushUpdate(event: DomainEvent<'user.profile-updated'>): Promise<void> {
    this.realtime.toUser(event.payload.userId, 'PROFILE_UPDATED', {
      type: 'PROFILE_UPDATED',
      data: { user_id: event.payload.userId },
      timestamp: event.occurredAt,
    });
  }
}
