import type { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DomainEvent, DomainEventName, DomainEventPayloads } from '../../events/domain-events.js';
import { JobRegistry } from './job-registry.js';
import { OutboxJob } from './outbox-job.entity.js';

/**
 * Publishes domain events through the transactional outbox: one outbox entry per subscriber,
 * persisted in the caller's entity manager, so the event exists exactly when the caller's rows
 * were committed. After the commit the outbox hands the entries to the queues by itself.
 */
@Injectable()
export class DomainEvents {
  constructor(@Inject(JobRegistry) private readonly registry: JobRegistry) {}

  publish<N extends DomainEventName>(em: EntityManager, name: N, payload: DomainEventPayloads[N]): DomainEvent<N> {
    const event: DomainEvent<N> = { id: randomUUID(), name, occurredAt: new Date().toISOString(), payload };
    for (const subscriber of this.registry.subscribersOf(name)) {
      em.persist(
        em.create(OutboxJob, {
          name: subscriber.name,
          queue: subscriber.queue,
          payload: event as unknown as Record<string, unknown>,
          createdAt: new Date(),
          attempts: 0,
        }),
      );
    }
    return event;
  }
}
