import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { DetailedHttpException } from '../../common/errors.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { JobQueue } from '../../infra/queue/job-queue.service.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import type { HealthCheckEntry, HealthResponse } from './dto/health.response.js';

const CHECK_TIMEOUT_MS = 3_000;
/**
 * Every open feedback page polls /api/health (SPEC §9: every 30 s), and a probe opens an SMTP
 * connection and asks S3 and the queues: callers within this window share one probe.
 */
const PROBE_REUSE_MS = 5_000;

/** A 503 whose body also carries the individual checks, so operators see what is down. */
export class UnhealthyException extends DetailedHttpException {
  constructor(checks: HealthCheckEntry[]) {
    const down = checks.filter((c) => c.status === 'down');
    super(down.map((c) => c.message).join('; '), HttpStatus.SERVICE_UNAVAILABLE, { checks });
  }
}

@Injectable()
export class HealthService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(MailService) private readonly mail: MailService,
  ) {}

  private latest: { startedAt: number; checks: Promise<HealthCheckEntry[]> } | undefined;

  async check(): Promise<HealthResponse> {
    const now = Date.now();
    if (!this.latest || now - this.latest.startedAt >= PROBE_REUSE_MS) {
      this.latest = { startedAt: now, checks: this.probeAll() };
    }
    const checks = await this.latest.checks;
    if (checks.some((c) => c.status === 'down')) throw new UnhealthyException(checks);
    return { status: 'ok', checks };
  }

  private probeAll(): Promise<HealthCheckEntry[]> {
    return Promise.all([
      probe('database', async () => {
        await this.em.fork().getConnection().execute('select 1');
        return { message: 'PostgreSQL reachable' };
      }),
      probe('queue', async () => {
        const counts = await this.jobs.counts();
        return { message: `BullMQ on ${this.jobs.backendName}`, details: { queues: counts } };
      }),
      probe('storage', async () => ({ message: await this.storage.check() })),
      probe('mail', async () => ({ message: await this.mail.check() })),
    ]);
  }
}

async function probe(name: string, run: () => Promise<{ message: string; details?: Record<string, unknown> }>): Promise<HealthCheckEntry> {
  const timestamp = new Date().toISOString();
  try {
    const result = await withTimeout(run(), CHECK_TIMEOUT_MS, `${name} did not answer within ${CHECK_TIMEOUT_MS} ms`);
    return { name, status: 'up', ...result, timestamp };
  } catch (error) {
    return { name, status: 'down', message: `${name} unavailable: ${error instanceof Error ? error.message : String(error)}`, timestamp };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
