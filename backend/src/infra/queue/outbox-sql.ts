import { randomUUID } from 'node:crypto';
import type { DomainEvent, DomainEventName, DomainEventPayloads } from '../../events/domain-events.js';
import type { SqlClient } from '../database/sql-client.js';
import type { SubscriberOptions } from './job-registry.js';

/**
 * DomainEvents.publish for the command line, which runs without the ORM or the job registry: the
 * event's outbox entry for the subscriber named, written with plain SQL in the caller's
 * transaction. A running web or worker process hands it to the queue at its next poll.
 */
export async function publishWithSql<N extends DomainEventName>(
  client: SqlClient,
  subscriber: SubscriberOptions,
  name: N,
  payload: DomainEventPayloads[N],
): Promise<void> {
  const event: DomainEvent<N> = { id: randomUUID(), name, occurredAt: new Date().toISOString(), payload };
  await client.query(`insert into outbox_job (id, name, queue, payload, created_at, attempts) values ($1, $2, $3, $4, now(), 0)`, [
    randomUUID(),
    subscriber.name,
    subscriber.queue,
    JSON.stringify(event),
  ]);
}
