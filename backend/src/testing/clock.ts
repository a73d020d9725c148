import type { Clock } from '../infra/clock/clock.js';

/** A clock a test sets and moves; starts at the real time. */
export class ControlledClock implements Clock {
  private current = new Date();

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date): void {
    this.current = new Date(date);
  }

  advanceDays(days: number): Date {
    this.current = new Date(this.current.getTime() + days * 24 * 3600_000);
    return this.now();
  }
}
