import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent, DomainEventName } from '../../events/domain-events.js';
import { QUEUES, type QueueName } from '../../jobs/queues.js';

/** What a job handler learns about its run. */
export interface JobContext {
  /** Stable across retries and re-deliveries of this job: use it (or ids in the payload) as the idempotency key. */
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
}

export type SubscriberHandler<N extends DomainEventName> = (event: DomainEvent<N>, job: JobContext) => Promise<void>;
export type ScheduledHandler = (job: JobContext) => Promise<void>;

export interface SubscriberOptions {
  /** The job's name: unique, stable (stored in the outbox), e.g. "contact.send-mails". */
  name: string;
  queue: QueueName;
}

export interface ScheduleOptions {
  /** The job's name: unique, e.g. "outbox.purge". */
  name: string;
  queue: QueueName;
  /** Run once per interval across all processes (a BullMQ job scheduler); a function when a setting sets it. */
  everyMs: number | ((config: AppConfig) => number);
}

const SUBSCRIBER = Symbol('fieldmarket:subscriber');
const SCHEDULE = Symbol('fieldmarket:schedule');

/**
 * Marks a provider method as a subscriber of a domain event. Each subscriber runs as its own
 * job with its own retries; the method must be idempotent (it runs at least once).
 */
export function OnDomainEvent<N extends DomainEventName>(event: N, options: SubscriberOptions) {
  return <T extends SubscriberHandler<N>>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<T>): void => {
    Reflect.defineMetadata(SUBSCRIBER, { event, ...options }, descriptor.value as object);
  };
}

/** Marks a provider method as periodic work, run once per interval across every process. */
export function ScheduledJob(options: ScheduleOptions) {
  return <T extends ScheduledHandler>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<T>): void => {
    Reflect.defineMetadata(SCHEDULE, options, descriptor.value as object);
  };
}

export interface RegisteredSubscriber extends SubscriberOptions {
  event: DomainEventName;
  run: SubscriberHandler<DomainEventName>;
}

export interface RegisteredSchedule extends ScheduleOptions {
  run: ScheduledHandler;
}

/**
 * Finds every @OnDomainEvent and @ScheduledJob method at boot, in web and worker processes alike
 * (the web process needs the subscribers to fan an event out; workers need the handlers).
 * Refuses to start on a duplicate job name or an unknown queue.
 */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly subscribers = new Map<string, RegisteredSubscriber>();
  private readonly schedules = new Map<string, RegisteredSchedule>();

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      for (const key of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const method = instance[key];
        if (typeof method !== 'function') continue;
        const subscriber = Reflect.getMetadata(SUBSCRIBER, method) as (SubscriberOptions & { event: DomainEventName }) | undefined;
        if (subscriber) this.add(this.subscribers, { ...subscriber, run: method.bind(instance) as RegisteredSubscriber['run'] });
        const schedule = Reflect.getMetadata(SCHEDULE, method) as ScheduleOptions | undefined;
        if (schedule) this.add(this.schedules, { ...schedule, run: method.bind(instance) as ScheduledHandler });
      }
    }
  }

  private add<T extends { name: string; queue: string }>(into: Map<string, T>, job: T): void {
    if (this.subscribers.has(job.name) || this.schedules.has(job.name)) {
      throw new Error(`Job name "${job.name}" is declared twice; job names must be unique`);
    }
    if (!(job.queue in QUEUES)) throw new Error(`Job "${job.name}" names unknown queue "${job.queue}"`);
    into.set(job.name, job);
  }

  subscribersOf(event: DomainEventName): RegisteredSubscriber[] {
    return [...this.subscribers.values()].filter((s) => s.event === event);
  }

  subscriber(name: string): RegisteredSubscriber | undefined {
    return this.subscribers.get(name);
  }

  schedule(name: string): RegisteredSchedule | undefined {
    return this.schedules.get(name);
  }

  allSchedules(): RegisteredSchedule[] {
    return [...this.schedules.values()];
  }

  allSubscribers(): RegisteredSubscriber[] {
    return [...this.subscribers.values()];
  }
}
