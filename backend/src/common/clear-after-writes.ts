import type { EventSubscriber, FlushEventArgs, TransactionEventArgs } from '@mikro-orm/core';

/** What a flush wrote to one entity: the entity and the fields it set (by property name). */
export interface WrittenChange {
  entity: object;
  payload: object;
}

/**
 * Forgets what was kept from rows a flush writes (`touches` says which writes matter): clears at the flush (a read
 * starting now must not reuse what was kept from before) and, inside a transaction, again at its commit (a read
 * between the flush and the commit saw the old rows).
 */
export class ClearAfterWrites implements EventSubscriber {
  private readonly pending = new WeakSet<object>();

  constructor(
    private readonly touches: (change: WrittenChange) => boolean,
    private readonly clear: () => void,
  ) {}

  afterFlush({ em, uow }: FlushEventArgs): void {
    if (!uow.getChangeSets().some((change) => this.touches(change))) return;
    this.clear();
    const transaction = em.getTransactionContext<object>();
    if (transaction) this.pending.add(transaction);
  }

  afterTransactionCommit({ transaction }: TransactionEventArgs): void {
    if (!transaction || !this.pending.has(transaction)) return;
    this.pending.delete(transaction);
    this.clear();
  }
}
