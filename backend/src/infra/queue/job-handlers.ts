import { Injectable } from '@nestjs/common';
import { JOB_NAMES, type JobName, type JobPayloads } from '../../jobs/job-map.js';

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], attempt: number) => Promise<void>;

/**
 * Modules register the handler of each job they own here (in onModuleInit).
 * The worker host refuses to start unless every job has exactly one handler.
 */
@Injectable()
export class JobHandlers {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();

  register<N extends JobName>(name: N, handler: JobHandler<N>): void {
    if (this.handlers.has(name)) throw new Error(`Job "${name}" has two handlers`);
    this.handlers.set(name, handler as JobHandler<JobName>);
  }

  get(name: string): JobHandler<JobName> | undefined {
    return this.handlers.get(name as JobName);
  }

  assertComplete(): void {
    const missing = JOB_NAMES.filter((name) => !this.handlers.has(name));
    if (missing.length > 0) throw new Error(`Jobs without a handler: ${missing.join(', ')}`);
  }
}
