import { resolve } from 'node:path';
import { ENV, type EnvName, type EnvValue, type EnvVariable, HEADERS_TIMEOUT_SECONDS } from './env-schema.js';
import type { TrustProxy } from './trust-proxy.js';

/**
 * The configuration, read from the environment variables declared in env-schema.ts and validated
 * once at boot. A wrong value stops the process with a message naming the variable.
 */
export interface AppConfig {
  nodeEnv: 'production' | 'development' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  trustProxy: TrustProxy;
  bodyLimitBytes: number;
  /** How long a connection may take to send a request, and stay idle between requests. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  corsOrigins: string[];
  /** Bearer token for the operator endpoints (GET /api/health/details); absent: they answer 404. */
  operatorToken: string | undefined;
  database: {
    /** Absent: an embedded PostgreSQL is started under dataDir. */
    url: string | undefined;
    embeddedPort: number;
    migrateOnStart: boolean;
    /** A streaming read replica: browse, search and public pages read from it; absent: everything reads the primary. */
    replicaUrl: string | undefined;
  };
  queue: {
    redisUrl: string | undefined;
    prefix: string;
    /** Whether this web process also runs the job workers. */
    workersInProcess: boolean;
    /** How often the outbox looks for work left behind (a crash, a queue outage). */
    outboxPollSeconds: number;
    /**
     * A process's claim on work: a running job's lock (renewed at half of it; workers look as often
     * for jobs whose lock ran out) and the outbox entries its relay is handing to the queue.
     */
    jobLeaseSeconds: number;
    /** How often the saved-search digest job looks for digests that are due. */
    digestCheckSeconds: number;
    /** The worker process serves its own /metrics (job durations) on this port; absent: none. */
    workerMetricsPort: number | undefined;
  };
  mail: {
    smtpUrl: string | undefined;
    from: string;
    staffAddress: string;
    outboxDir: string;
  };
  storage: {
    s3:
      | {
          bucket: string;
          endpoint: string | undefined;
          region: string;
          accessKeyId: string | undefined;
          secretAccessKey: string | undefined;
          forcePathStyle: boolean;
        }
      | undefined;
    uploadsDir: string;
  };
  contactRateLimit: { limit: number; windowSeconds: number };
  /** Images one user may upload per hour. */
  imageUploadsPerHour: number;
  /** How long an answer of GET /api/listings is reused for the same query (0: never). */
  searchCacheMs: number;
  /** The postcodes.io API postcodes and outcodes are looked up in. */
  postcodesApiUrl: string;
  /** How long to wait at start for PostgreSQL and Redis to answer before giving up. */
  startupWaitSeconds: number;
  /** After SIGTERM, how long the readiness probe fails while requests are still served (load balancer's notice). */
  shutdownNoticeMs: number;
  /** Key for two-factor secrets at rest; absent: generated once under dataDir. */
  twoFactorKey: Buffer | undefined;
  /** Requests per client address to /api (health probes aside), shared by every web process. */
  apiRateLimit: { limit: number; windowSeconds: number };
  frontendDir: string | undefined;
  /** Whether GET /api/test/realtime and /api/test/polling exist (the developer pages' figures from the server). */
  diagnosticRoutes: boolean;
  /** Google sign-in; absent unless GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. */
  google: GoogleConfig | undefined;
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Reads variables by their entries in ENV, collecting what is wrong with each so all are reported at once. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  /** The variable's value: parsed when set (not blank), else its default; a wrong value is reported and read as unset. */
  get<N extends EnvName>(name: N): EnvValue<N> {
    const variable: EnvVariable = ENV[name];
    const raw = this.env[name]?.trim();
    if (raw === undefined || raw === '') return variable.default as EnvValue<N>;
    const result = variable.parse(raw);
    if ('problem' in result) {
      this.problems.push(`${name} ${result.problem}`);
      return variable.default as EnvValue<N>;
    }
    return result.value as EnvValue<N>;
  }
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const read = new EnvReader(env);
  const port = read.get('PORT');
  const dataDir = resolve(cwd, read.get('DATA_DIR'));
  const databaseUrl = read.get('DATABASE_URL');
  const redisUrl = read.get('REDIS_URL');
  const s3Bucket = read.get('S3_BUCKET');
  const s3Endpoint = read.get('S3_ENDPOINT');
  const frontendDir = read.get('FRONTEND_DIR');
  const publicUrl = read.get('PUBLIC_URL') ?? `http://localhost:${port}`;
  const nodeEnv = read.get('NODE_ENV');

  const config: AppConfig = {
    nodeEnv,
    host: read.get('HOST'),
    port,
    publicUrl: publicUrl.replace(/\/$/, ''),
    dataDir,
    logLevel: read.get('LOG_LEVEL'),
    trustProxy: read.get('TRUST_PROXY'),
    bodyLimitBytes: read.get('BODY_LIMIT_BYTES'),
    http: {
      headersTimeoutMs: HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: read.get('REQUEST_TIMEOUT_SECONDS') * 1000,
      keepAliveTimeoutMs: read.get('KEEP_ALIVE_TIMEOUT_SECONDS') * 1000,
    },
    corsOrigins: read.get('CORS_ORIGINS') ?? [],
    operatorToken: read.get('OPERATOR_TOKEN'),
    database: {
      url: databaseUrl,
      embeddedPort: read.get('EMBEDDED_PG_PORT'),
      migrateOnStart: read.get('MIGRATE_ON_START') ?? databaseUrl === undefined,
      replicaUrl: read.get('DATABASE_REPLICA_URL'),
    },
    queue: {
      redisUrl,
      prefix: read.get('QUEUE_PREFIX'),
      workersInProcess: read.get('WORKERS_IN_PROCESS') ?? redisUrl === undefined,
      outboxPollSeconds: read.get('OUTBOX_POLL_SECONDS'),
      jobLeaseSeconds: read.get('JOB_LEASE_SECONDS'),
      digestCheckSeconds: read.get('DIGEST_CHECK_SECONDS'),
      workerMetricsPort: read.get('WORKER_METRICS_PORT'),
    },
    mail: {
      smtpUrl: read.get('SMTP_URL'),
      from: read.get('MAIL_FROM'),
      staffAddress: read.get('STAFF_EMAIL'),
      outboxDir: resolve(cwd, read.get('MAIL_OUTBOX_DIR') ?? resolve(dataDir, 'outbox')),
    },
    storage: {
      s3: s3Bucket
        ? {
            bucket: s3Bucket,
            endpoint: s3Endpoint,
            region: read.get('S3_REGION'),
            accessKeyId: read.get('S3_ACCESS_KEY_ID'),
            secretAccessKey: read.get('S3_SECRET_ACCESS_KEY'),
            forcePathStyle: read.get('S3_FORCE_PATH_STYLE') ?? s3Endpoint !== undefined,
          }
        : undefined,
      uploadsDir: resolve(cwd, read.get('UPLOADS_DIR') ?? resolve(dataDir, 'uploads')),
    },
    contactRateLimit: {
      limit: read.get('CONTACT_RATE_LIMIT'),
      windowSeconds: read.get('CONTACT_RATE_WINDOW_SECONDS'),
    },
    imageUploadsPerHour: read.get('IMAGE_UPLOADS_PER_HOUR'),
    searchCacheMs: read.get('SEARCH_CACHE_MS'),
    postcodesApiUrl: read.get('POSTCODES_API_URL'),
    startupWaitSeconds: read.get('STARTUP_WAIT_SECONDS'),
    // At most 5 s, so notice, drain (10 s) and closing fit in the shutdown's grace period (20 s).
    shutdownNoticeMs: read.get('SHUTDOWN_NOTICE_SECONDS') * 1000,
    twoFactorKey: read.get('TWO_FACTOR_KEY'),
    apiRateLimit: {
      limit: read.get('API_RATE_LIMIT'),
      windowSeconds: read.get('API_RATE_WINDOW_SECONDS'),
    },
    frontendDir: frontendDir === 'none' ? undefined : resolve(cwd, frontendDir),
    diagnosticRoutes: read.get('DIAGNOSTIC_ROUTES') ?? nodeEnv === 'development',
    google: readGoogle(read),
  };

  // Read by the frontend's server-side API client (frontend/src/lib/api.ts); checked here so a typo stops the boot.
  read.get('INTERNAL_API_URL');
  if (s3Endpoint && !s3Bucket) read.problems.push('S3_ENDPOINT is set but S3_BUCKET is not');
  if (read.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${read.problems.join('\n  - ')}`);
  }
  return config;
}

/** Google sign-in: both client values or neither; the endpoints are Google's unless pointed elsewhere (tests). */
function readGoogle(read: EnvReader): GoogleConfig | undefined {
  const clientId = read.get('GOOGLE_CLIENT_ID');
  const clientSecret = read.get('GOOGLE_CLIENT_SECRET');
  const authorizationUrl = read.get('GOOGLE_AUTHORIZATION_URL');
  const tokenUrl = read.get('GOOGLE_TOKEN_URL');
  const userInfoUrl = read.get('GOOGLE_USERINFO_URL');
  if (clientId && !clientSecret)
    read.problems.push('GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not: set both for Google sign-in, or neither');
  if (clientSecret && !clientId)
    read.problems.push('GOOGLE_CLIENT_SECRET is set but GOOGLE_CLIENT_ID is not: set both for Google sign-in, or neither');
  if (!new URL(userInfoUrl).pathname.endsWith('/userinfo')) {
    read.problems.push('GOOGLE_USERINFO_URL must be an OpenID Connect userinfo endpoint (its path ends in /userinfo)');
  }
  if (!clientId || !clientSecret) return undefined;
  return { clientId, clientSecret, authorizationUrl, tokenUrl, userInfoUrl };
}
