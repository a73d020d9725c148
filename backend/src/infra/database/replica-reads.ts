import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { isUnavailable } from '../../common/dependency-errors.js';

/**
 * Where a query reads: the primary, or the read replica (DATABASE_REPLICA_URL) for what anyone may
 * see a moment late (browse, search, public pages). Without a replica both are the primary.
 */
export type ReadFrom = 'primary' | 'replica';

/** The ORM's `connectionType` for a read from there. */
export function connectionFor(from: ReadFrom): 'read' | 'write' {
  return from === 'replica' ? 'read' : 'write';
}

/** After the replica fails, its reads go to the primary for this long before it is tried again. */
export const REPLICA_RETRY_MS = 10_000;

/** The replica as the last read found it, for the operators' health check. */
export type ReplicaState =
  { configured: false } | { configured: true; up: true } | { configured: true; up: false; since: Date; error: string; retryAt: Date };

/**
 * Sends reads meant for the replica to the primary while the replica cannot be reached, so a
 * replica that is down (restarting, failed over, its network cut) slows nothing and breaks no
 * page: the read that meets the failure is run again on the primary, and for REPLICA_RETRY_MS the
 * replica is left alone; the first read after that tries it again. Only failures to reach it
 * count (connection refused or cut, too many connections, shut down): a query's own error is the
 * caller's, from either database.
 */
@Injectable()
export class ReplicaReads {
  private readonly logger = new Logger('Database');
  private down: { since: Date; error: string; retryAt: number } | undefined;

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  /** Whether a read replica is configured (else 'replica' reads the primary). */
  get configured(): boolean {
    return this.em.getConnection('read') !== this.em.getConnection('write');
  }

  /** Runs `read` where a read meant for `from` goes now; once more on the primary if the replica cannot be reached. */
  async read<T>(from: ReadFrom, read: (from: ReadFrom) => Promise<T>): Promise<T> {
    if (from === 'primary' || !this.configured) return read('primary');
    if (this.down && Date.now() < this.down.retryAt) return read('primary');
    try {
      const result = await read('replica');
      if (this.down) {
        this.logger.log(
          `The read replica answers again after ${Math.round((Date.now() - this.down.since.getTime()) / 1000)} s; visitors' reads go back to it`,
        );
        this.down = undefined;
      }
      return result;
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (!this.down) this.logger.warn(`The read replica cannot be reached (${message}); visitors' reads go to the primary meanwhile`);
      this.down = { since: this.down?.since ?? new Date(), error: message, retryAt: Date.now() + REPLICA_RETRY_MS };
      return read('primary');
    }
  }

  state(): ReplicaState {
    if (!this.configured) return { configured: false };
    if (!this.down) return { configured: true, up: true };
    return { configured: true, up: false, since: this.down.since, error: this.down.error, retryAt: new Date(this.down.retryAt) };
  }
}
