import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DetailedHttpException } from '../../common/errors.js';
import { ReplicaReads } from '../../infra/database/replica-reads.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { JobQueue } from '../../infra/queue/job-queue.service.js';
import { Outbox, type OutboxBacklog } from '../../infra/queue/outbox.service.js';
import { withTimeout } from '../../common/timeout.js';
import type { ObjectStorage } from '../../infra/storage/object-storage.js';
import { OBJECT_STORAGE } from '../../infra/storage/storage.module.js';
import { MIGRATIONS } from '../../migrations/index.js';
import type {
  HealthCheckDetails,
  HealthCheckEntry,
  HealthDetailsResponse,
  HealthResponse,
  HealthStatus,
  LivenessResponse,
  ReadinessResponse,
} from './dto/health.response.js';

const CHECK_TIMEOUT_MS = 3_000;
/**
 * Every open feedback page polls /api/health (SPEC §9: every 30 s), and a probe opens an SMTP
 * connection and asks S3 and the queues: callers within this window share one probe.
 */
const PROBE_REUSE_MS = 5_000;

/** How each dependency is named to the public; paths, hosts, bucket names and raw errors stay in the details. */
const DEPENDENCIES = {
  database: 'Database',
  replica: 'Read replica',
  queue: 'Job queue',
  storage: 'Image storage',
  mail: 'Mail delivery',
  jobs: 'Background work',
} as const;
type Dependency = keyof typeof DEPENDENCIES;

/** A 503 whose body also carries the public checks, so a client sees what is down. */
export class UnhealthyException extends DetailedHttpException {
  constructor(report: HealthResponse) {
    const down = report.checks.filter((c) => c.status === 'down');
    super(down.map((c) => c.message).join('; '), HttpStatus.SERVICE_UNAVAILABLE, report);
  }
}

@Injectable()
export class HealthService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(ReplicaReads) private readonly replica: ReplicaReads,
  ) {}

  private latest: { startedAt: number; checks: Promise<HealthCheckDetails[]> } | undefined;

  /** For everyone: up or down per dependency, in words; 503 when one is down. */
  async check(): Promise<HealthResponse> {
    const report = await this.details();
    const publicReport: HealthResponse = {
      status: report.status,
      checks: report.checks.map(({ name, status, message, timestamp }) => ({ name, status, message, timestamp })),
    };
    if (report.status === 'down') throw new UnhealthyException(publicReport);
    return publicReport;
  }

  /** For operators: the same checks with what was checked where, raw errors and job counts. */
  async details(): Promise<HealthDetailsResponse> {
    const now = Date.now();
    if (!this.latest || now - this.latest.startedAt >= PROBE_REUSE_MS) {
      this.latest = { startedAt: now, checks: this.probeAll() };
    }
    const checks = await this.latest.checks;
    return { status: overallStatus(checks), checks };
  }

  /** Liveness: the process answers (nothing else is asked, so a slow database never gets it restarted). */
  live(): LivenessResponse {
    return { status: 'alive', uptime_seconds: Math.round(process.uptime()) };
  }

  /**
   * Readiness: the database answers and every migration this version knows is applied. A new
   * version deployed before `./fieldmarket migrate` stays out of the load balancer until it ran.
   */
  async ready(): Promise<ReadinessResponse> {
    let applied: Set<string>;
    try {
      const rows = await withTimeout(
        this.em.fork().getConnection().execute<Array<{ name: string }>>('select name from mikro_orm_migrations'),
        CHECK_TIMEOUT_MS,
        `the database did not answer within ${CHECK_TIMEOUT_MS} ms`,
      );
      applied = new Set(rows.map((row) => row.name));
    } catch (error) {
      throw new ServiceUnavailableException(
        `Not ready: the database is unreachable (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const pending = MIGRATIONS.filter((m) => !applied.has(m.name)).map((m) => m.name);
    if (pending.length > 0) {
      throw new ServiceUnavailableException(
        `Not ready: ${pending.length} migration${pending.length === 1 ? ' is' : 's are'} pending (${pending.join(', ')}); run ./fieldmarket migrate`,
      );
    }
    return { status: 'ready', migrations_applied: applied.size };
  }

  private probeAll(): Promise<HealthCheckDetails[]> {
    return Promise.all([
      probe('database', async () => {
        await this.em.fork().getConnection().execute('select 1');
        return { description: 'PostgreSQL reachable' };
      }),
      ...(this.replica.configured ? [this.probeReplica()] : []),
      probe('queue', async () => {
        const counts = await this.jobs.counts();
        return { description: `BullMQ on ${this.jobs.backendName}`, details: { queues: counts } };
      }),
      probe('storage', async () => ({ description: await this.storage.check() })),
      probe('mail', async () => ({ description: await this.mail.check() })),
      this.probeJobs(),
    ]);
  }

  /**
   * Degraded, not down, when the read replica cannot be reached: visitors' reads go to the primary
   * meanwhile (ReplicaReads), so the site works, with more load on the primary.
   */
  private async probeReplica(): Promise<HealthCheckDetails> {
    const checked = await probe('replica', async () => {
      await this.em.fork().getConnection('read').execute('select 1');
      return { description: 'PostgreSQL read replica reachable' };
    });
    const state = this.replica.state();
    if (checked.status === 'down') {
      return { ...checked, status: 'degraded', message: 'Pages are served from the main database while the read replica is unavailable' };
    }
    if (state.configured && !state.up) {
      // Reachable again; reads return to it at the next try.
      return { ...checked, description: `${checked.description}; reads return to it at ${state.retryAt.toISOString()}` };
    }
    return checked;
  }

  /** Up while background work keeps up; degraded (not down: the site works) while jobs fail or wait. */
  private async probeJobs(): Promise<HealthCheckDetails> {
    const checked = await probe('jobs', async () => {
      const backlog = await this.outbox.backlog();
      return { description: describeBacklog(backlog), details: { ...backlog } };
    });
    const backlog = checked.details as OutboxBacklog | undefined;
    if (checked.status === 'up' && backlog && backlog.stuck + backlog.retrying + backlog.failed > 0) {
      return { ...checked, status: 'degraded', message: 'Some background work (such as e-mail) is delayed' };
    }
    return checked;
  }
}

function describeBacklog({ stuck, retrying, failed }: OutboxBacklog): string {
  return `${stuck} waiting over a minute for the queue, ${retrying} failing and being retried, ${failed} failed for good (retry them from the queue)`;
}

/** "down" when a dependency is; "degraded" when one's work is not going to plan; otherwise "ok". */
function overallStatus(checks: HealthCheckEntry[]): HealthStatus {
  if (checks.some((c) => c.status === 'down')) return 'down';
  return checks.some((c) => c.status === 'degraded') ? 'degraded' : 'ok';
}

async function probe(
  name: Dependency,
  run: () => Promise<{ description: string; details?: Record<string, unknown> }>,
): Promise<HealthCheckDetails> {
  const timestamp = new Date().toISOString();
  try {
    const result = await withTimeout(run(), CHECK_TIMEOUT_MS, `${name} did not answer within ${CHECK_TIMEOUT_MS} ms`);
    return { name, status: 'up', message: `${DEPENDENCIES[name]} is available`, ...result, timestamp };
  } catch (error) {
    const description = `${name} unavailable: ${error instanceof Error ? error.message : String(error)}`;
    return { name, status: 'down', message: `${DEPENDENCIES[name]} is unavailable`, description, timestamp };
  }
}
