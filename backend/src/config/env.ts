import { resolve } from 'node:path';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

/**
 * Every environment variable the product reads, parsed and validated once at boot.
 * A wrong value stops the process with a message naming the variable.
 * The README's configuration table mirrors ENV_DOCS below.
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

export const ENV_DOCS: ReadonlyArray<{ name: string; default: string; description: string }> = [
  { name: 'NODE_ENV', default: 'production', description: 'production, development or test' },
  { name: 'HOST', default: '0.0.0.0', description: 'Interface the web process listens on' },
  { name: 'PORT', default: '3000', description: 'Port for the pages, /api and /socket.io' },
  { name: 'PUBLIC_URL', default: 'http://localhost:$PORT', description: 'Address printed at start, used in e-mails and canonical links' },
  { name: 'DATA_DIR', default: './.data', description: 'Folder for the embedded database, uploads and the mail outbox' },
  { name: 'LOG_LEVEL', default: 'log', description: 'error, warn, log, debug or verbose' },
  { name: 'TRUST_PROXY', default: 'false', description: 'Proxies in front: how many (e.g. 1) or their addresses/CIDRs; see below' },
  { name: 'BODY_LIMIT_BYTES', default: '1048576', description: 'Largest JSON body accepted; larger gets 413' },
  { name: 'REQUEST_TIMEOUT_SECONDS', default: '30', description: 'Time a client has to send a whole request (headers: 10 s); then 408' },
  { name: 'KEEP_ALIVE_TIMEOUT_SECONDS', default: '5', description: 'Idle time before a kept-alive connection is closed' },
  { name: 'CORS_ORIGINS', default: '(none)', description: 'Comma-separated origins allowed to call /api from another site' },
  {
    name: 'OPERATOR_TOKEN',
    default: '(none)',
    description: 'Bearer token for /api/health/details and /metrics (32+ characters); unset: 404',
  },
  { name: 'DATABASE_URL', default: '(embedded)', description: 'PostgreSQL URL; without it an embedded PostgreSQL runs under DATA_DIR' },
  {
    name: 'DATABASE_REPLICA_URL',
    default: '(none)',
    description: "Read replica of DATABASE_URL: browse, search and public pages read from it; a user's own data from the primary",
  },
  { name: 'EMBEDDED_PG_PORT', default: '54329', description: 'Port of the embedded PostgreSQL' },
  { name: 'MIGRATE_ON_START', default: 'true when embedded, else false', description: 'Apply migrations when the web process starts' },
  { name: 'REDIS_URL', default: '(none)', description: 'Redis for BullMQ and the socket.io adapter; without it queues use PostgreSQL' },
  { name: 'QUEUE_PREFIX', default: 'fieldmarket', description: 'Prefix of BullMQ keys (Redis) or queue names (PostgreSQL)' },
  { name: 'WORKERS_IN_PROCESS', default: 'true without REDIS_URL, else false', description: 'Run the job workers inside the web process' },
  {
    name: 'WORKER_METRICS_PORT',
    default: '(none)',
    description: 'Port the worker process serves its /metrics on (job durations), with the operator token',
  },
  { name: 'OUTBOX_POLL_SECONDS', default: '5', description: 'How often the job outbox looks for work left behind by a crash or outage' },
  { name: 'SMTP_URL', default: '(none)', description: 'smtp:// or smtps:// URL; without it mail is written to the outbox' },
  { name: 'MAIL_FROM', default: 'Fieldmarket <no-reply@fieldmarket.co.uk>', description: 'Sender of outgoing mail' },
  { name: 'STAFF_EMAIL', default: 'support@fieldmarket.co.uk', description: 'Where contact messages are delivered' },
  { name: 'MAIL_OUTBOX_DIR', default: '$DATA_DIR/outbox', description: 'Folder of the local outbox' },
  { name: 'S3_BUCKET', default: '(none)', description: 'Bucket for images; without it images go to UPLOADS_DIR' },
  { name: 'S3_ENDPOINT', default: '(AWS)', description: 'S3-compatible endpoint URL (MinIO, s3rver, ...)' },
  { name: 'S3_REGION', default: 'eu-west-2', description: 'S3 region' },
  { name: 'S3_ACCESS_KEY_ID', default: '(SDK default chain)', description: 'S3 access key' },
  { name: 'S3_SECRET_ACCESS_KEY', default: '(SDK default chain)', description: 'S3 secret key' },
  { name: 'S3_FORCE_PATH_STYLE', default: 'true when S3_ENDPOINT is set', description: 'Path-style bucket addressing' },
  { name: 'UPLOADS_DIR', default: '$DATA_DIR/uploads', description: 'Folder for images on local disk' },
  {
    name: 'TWO_FACTOR_KEY',
    default: '(generated in DATA_DIR)',
    description: '32 random bytes, base64: encrypts two-factor secrets; the same in every process',
  },
  { name: 'STARTUP_WAIT_SECONDS', default: '30', description: 'How long to wait at start for DATABASE_URL and REDIS_URL to answer' },
  {
    name: 'SHUTDOWN_NOTICE_SECONDS',
    default: '0',
    description: 'After SIGTERM, seconds /api/health/ready answers 503 while requests are still served (behind a load balancer)',
  },
  { name: 'CONTACT_RATE_LIMIT', default: '5', description: 'Contact messages accepted per client per window' },
  { name: 'IMAGE_UPLOADS_PER_HOUR', default: '60', description: 'Images one user may upload per hour' },
  {
    name: 'SEARCH_CACHE_MS',
    default: '2000',
    description: 'How long (ms) an answer of browse and search is reused for the same query; 0 turns it off',
  },
  { name: 'CONTACT_RATE_WINDOW_SECONDS', default: '900', description: 'Length of the contact rate-limit window' },
  { name: 'API_RATE_LIMIT', default: '600', description: 'Requests to /api accepted per client per window (health probes aside)' },
  { name: 'API_RATE_WINDOW_SECONDS', default: '60', description: 'Length of the /api rate-limit window' },
  { name: 'FRONTEND_DIR', default: './frontend/dist', description: 'Built Astro site to serve; "none" serves only /api' },
  {
    name: 'INTERNAL_API_URL',
    default: 'http://127.0.0.1:$PORT',
    description: "Where pages rendered by `astro dev` call /api; the web process's pages call it in process",
  },
  {
    name: 'DIAGNOSTIC_ROUTES',
    default: 'true when NODE_ENV=development, else false',
    description: "Serve /api/test/realtime and /api/test/polling (developer pages' figures); off: 404",
  },
  {
    name: 'GOOGLE_CLIENT_ID',
    default: '(none)',
    description: "Google sign-in's OAuth client ID; set with GOOGLE_CLIENT_SECRET, or neither",
  },
  { name: 'GOOGLE_CLIENT_SECRET', default: '(none)', description: "That OAuth client's secret" },
  {
    name: 'GOOGLE_AUTHORIZATION_URL',
    default: "Google's (see Google sign-in below)",
    description: 'Where the browser is sent to sign in with Google',
  },
  { name: 'GOOGLE_TOKEN_URL', default: "Google's", description: 'Where the server exchanges the code for a token' },
  { name: 'GOOGLE_USERINFO_URL', default: "Google's", description: 'OpenID Connect userinfo endpoint (path ends in /userinfo)' },
];

type Env = Record<string, string | undefined>;

/** Time a client has to send a request's headers (slow-header attacks); the whole request gets REQUEST_TIMEOUT_SECONDS. */
const HEADERS_TIMEOUT_SECONDS = 10;

class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** A value with a parser of its own, which returns the value or what is wrong with it. */
  parsed<T>(name: string, fallback: T, parse: (raw: string) => { value: T } | { problem: string }): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const result = parse(raw);
    if ('problem' in result) {
      this.problems.push(`${name} ${result.problem}`);
      return fallback;
    }
    return result.value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }

  /** A key of `bytes` bytes, given in base64. */
  base64Key(name: string, bytes: number): Buffer | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const key = Buffer.from(raw, 'base64');
    if (key.length !== bytes || !/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) {
      this.problems.push(`${name} must be ${bytes} random bytes in base64 (e.g. from: openssl rand -base64 ${bytes})`);
      return undefined;
    }
    return key;
  }

  url(name: string, protocols: readonly string[]): string | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        this.problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      }
    } catch {
      this.problems.push(`${name} is not a valid URL`);
    }
    return raw;
  }
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const read = new EnvReader(env);
  const port = read.int('PORT', 3000, 1, 65535);
  const dataDir = resolve(cwd, read.string('DATA_DIR') ?? '.data');
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = read.url('REDIS_URL', ['redis:', 'rediss:']);
  const s3Bucket = read.string('S3_BUCKET');
  const s3Endpoint = read.url('S3_ENDPOINT', ['http:', 'https:']);
  const frontendDir = read.string('FRONTEND_DIR') ?? 'frontend/dist';
  const publicUrl = read.url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const nodeEnv = read.oneOf('NODE_ENV', ['production', 'development', 'test'] as const, 'production');

  const config: AppConfig = {
    nodeEnv,
    host: read.string('HOST') ?? '0.0.0.0',
    port,
    publicUrl: publicUrl.replace(/\/$/, ''),
    dataDir,
    logLevel: read.oneOf('LOG_LEVEL', ['error', 'warn', 'log', 'debug', 'verbose'] as const, 'log'),
    trustProxy: read.parsed('TRUST_PROXY', false, parseTrustProxy),
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    http: {
      headersTimeoutMs: HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: read.int('REQUEST_TIMEOUT_SECONDS', 30, HEADERS_TIMEOUT_SECONDS, 3_600) * 1000,
      keepAliveTimeoutMs: read.int('KEEP_ALIVE_TIMEOUT_SECONDS', 5, 1, 600) * 1000,
    },
    corsOrigins: (read.string('CORS_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    operatorToken: read.parsed('OPERATOR_TOKEN', undefined, (raw) =>
      raw.length >= 32 ? { value: raw } : { problem: 'must be at least 32 characters (for example: openssl rand -hex 32)' },
    ),
    database: {
      url: databaseUrl,
      embeddedPort: read.int('EMBEDDED_PG_PORT', 54329, 1, 65535),
      migrateOnStart: read.bool('MIGRATE_ON_START', databaseUrl === undefined),
      replicaUrl: read.url('DATABASE_REPLICA_URL', ['postgres:', 'postgresql:']),
    },
    queue: {
      redisUrl,
      prefix: read.string('QUEUE_PREFIX') ?? 'fieldmarket',
      workersInProcess: read.bool('WORKERS_IN_PROCESS', redisUrl === undefined),
      outboxPollSeconds: read.int('OUTBOX_POLL_SECONDS', 5, 1, 300),
      workerMetricsPort: read.string('WORKER_METRICS_PORT') === undefined ? undefined : read.int('WORKER_METRICS_PORT', 9464, 1, 65535),
    },
    mail: {
      smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
      from: read.string('MAIL_FROM') ?? 'Fieldmarket <no-reply@fieldmarket.co.uk>',
      staffAddress: read.string('STAFF_EMAIL') ?? 'support@fieldmarket.co.uk',
      outboxDir: resolve(cwd, read.string('MAIL_OUTBOX_DIR') ?? resolve(dataDir, 'outbox')),
    },
    storage: {
      s3: s3Bucket
        ? {
            bucket: s3Bucket,
            endpoint: s3Endpoint,
            region: read.string('S3_REGION') ?? 'eu-west-2',
            accessKeyId: read.string('S3_ACCESS_KEY_ID'),
            secretAccessKey: read.string('S3_SECRET_ACCESS_KEY'),
            forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', s3Endpoint !== undefined),
          }
        : undefined,
      uploadsDir: resolve(cwd, read.string('UPLOADS_DIR') ?? resolve(dataDir, 'uploads')),
    },
    contactRateLimit: {
      limit: read.int('CONTACT_RATE_LIMIT', 5, 1, 10_000),
      windowSeconds: read.int('CONTACT_RATE_WINDOW_SECONDS', 900, 1, 86_400),
    },
    imageUploadsPerHour: read.int('IMAGE_UPLOADS_PER_HOUR', 60, 1, 100_000),
    searchCacheMs: read.int('SEARCH_CACHE_MS', 2_000, 0, 60_000),
    startupWaitSeconds: read.int('STARTUP_WAIT_SECONDS', 30, 0, 3_600),
    // At most 5 s, so notice, drain (10 s) and closing fit in the shutdown's grace period (20 s).
    shutdownNoticeMs: read.int('SHUTDOWN_NOTICE_SECONDS', 0, 0, 5) * 1000,
    twoFactorKey: read.base64Key('TWO_FACTOR_KEY', 32),
    apiRateLimit: {
      limit: read.int('API_RATE_LIMIT', 600, 1, 1_000_000),
      windowSeconds: read.int('API_RATE_WINDOW_SECONDS', 60, 1, 3_600),
    },
    frontendDir: frontendDir === 'none' ? undefined : resolve(cwd, frontendDir),
    diagnosticRoutes: read.bool('DIAGNOSTIC_ROUTES', nodeEnv === 'development'),
    google: readGoogle(read),
  };

  // Read by the frontend's server-side API client (frontend/src/lib/api.ts); checked here so a typo stops the boot.
  read.url('INTERNAL_API_URL', ['http:', 'https:']);
  if (s3Endpoint && !s3Bucket) read.problems.push('S3_ENDPOINT is set but S3_BUCKET is not');
  if (!/^[A-Za-z0-9_-]+$/.test(config.queue.prefix)) {
    read.problems.push('QUEUE_PREFIX may hold only letters, digits, "-" and "_"');
  }
  if (read.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${read.problems.join('\n  - ')}`);
  }
  return config;
}

const GOOGLE_DEFAULTS = {
  GOOGLE_AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
  GOOGLE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
  GOOGLE_USERINFO_URL: 'https://openidconnect.googleapis.com/v1/userinfo',
};

/** Google sign-in: both client values or neither; the endpoints are Google's unless pointed elsewhere (tests). */
function readGoogle(read: EnvReader): GoogleConfig | undefined {
  const clientId = read.string('GOOGLE_CLIENT_ID');
  const clientSecret = read.string('GOOGLE_CLIENT_SECRET');
  const endpoint = (name: keyof typeof GOOGLE_DEFAULTS) => read.url(name, ['http:', 'https:']) ?? GOOGLE_DEFAULTS[name];
  const authorizationUrl = endpoint('GOOGLE_AUTHORIZATION_URL');
  const tokenUrl = endpoint('GOOGLE_TOKEN_URL');
  const userInfoUrl = endpoint('GOOGLE_USERINFO_URL');
  if (clientId && !clientSecret)
    read.problems.push('GOOGLE_CLIENT_ID is set but GOOGLE_CLIENT_SECRET is not: set both for Google sign-in, or neither');
  if (clientSecret && !clientId)
    read.problems.push('GOOGLE_CLIENT_SECRET is set but GOOGLE_CLIENT_ID is not: set both for Google sign-in, or neither');
  const userInfoPath = pathOf(userInfoUrl);
  if (userInfoPath !== undefined && !userInfoPath.endsWith('/userinfo')) {
    read.problems.push('GOOGLE_USERINFO_URL must be an OpenID Connect userinfo endpoint (its path ends in /userinfo)');
  }
  if (!clientId || !clientSecret) return undefined;
  return { clientId, clientSecret, authorizationUrl, tokenUrl, userInfoUrl };
}

/** The path of a URL; undefined when it is no URL (already reported). */
function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
