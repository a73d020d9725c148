import { Injectable } from '@nestjs/common';

/** Something a module deletes once it is older than its retention period. */
export interface RetentionPurge {
  /** What it removes, for the job's log, e.g. "contact messages". */
  what: string;
  /** Deletes what is due at `now`; returns how many rows went. */
  purge(now: Date): Promise<number>;
}

/**
 * Each module registers what it holds for a limited time (onModuleInit); the daily retention job
 * runs every purge, so no module reads another's tables and one log line says what went.
 */
@Injectable()
export class RetentionRegistry {
  private readonly purges: RetentionPurge[] = [];

  add(purge: RetentionPurge): void {
    this.purges.push(purge);
  }

  all(): readonly RetentionPurge[] {
    return this.purges;
  }
}

/** `date` moved back by whole calendar years (29 February becomes 1 March). */
export function yearsBefore(date: Date, years: number): Date {
  const moved = new Date(date);
  moved.setUTCFullYear(moved.getUTCFullYear() - years);
  return moved;
}

export function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * 24 * 3600_000);
}
