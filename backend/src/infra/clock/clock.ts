import { type DynamicModule, Global, Module } from '@nestjs/common';

/**
 * The time, for rules measured in months and years (inactive accounts, retention periods): a
 * test hands the application a clock it moves, instead of waiting or rewriting rows' dates.
 */
export interface Clock {
  now(): Date;
}

/** Injection token for the application's clock. */
export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };

@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = systemClock): DynamicModule {
    return { module: ClockModule, providers: [{ provide: CLOCK, useValue: clock }], exports: [CLOCK] };
  }
}
