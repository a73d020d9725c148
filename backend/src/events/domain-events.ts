/**
 * Every domain event: its name and payload, declared once. A use case publishes an event in the
 * same transaction as its rows (DomainEvents.publish); each subscriber (@OnDomainEvent) then runs
 * as its own job, with its own retries, so a failing subscriber never blocks or repeats another.
 *
 * Payloads carry ids, not copies of rows: a subscriber reads the current state, which is what an
 * at-least-once job needs to stay idempotent.
 */
export interface DomainEventPayloads {
  /** A visitor sent the contact form; the message is stored. */
  'contact.received': { contactMessageId: string };
}

export type DomainEventName = keyof DomainEventPayloads;

/** What a subscriber receives. */
export interface DomainEvent<N extends DomainEventName = DomainEventName> {
  /** Unique per publish; the same for every subscriber of that publish. */
  id: string;
  name: N;
  occurredAt: string;
  payload: DomainEventPayloads[N];
}
