import { parseTrustProxy } from './trust-proxy.js';

/**
 * Every environment variable the product reads, declared once: its type, bounds, default and
 * meaning. The loader (env.ts) reads by these entries, the validation messages come from them, and
 * the README's configuration table is generated from them (npm run docs:env; a test compares).
 */

type Parsed<T> = { value: T } | { problem: string };

export interface EnvVariable<T = unknown, HasDefault extends boolean = boolean> {
  /** What the variable is for: the README table's "Meaning". */
  readonly description: string;
  /** The value when the variable is unset or blank; absent when the loader derives it or none is needed. */
  readonly default: HasDefault extends true ? T : undefined;
  /**
   * The README's "Default" when it is not the default value itself: a derived default ("true when
   * embedded"), the absence of one ("(none)"), or a long value named briefly.
   */
  readonly shownDefault?: string;
  /** The value of a set variable (trimmed, not blank), or what is wrong with it (the message after the name). */
  readonly parse: (raw: string) => Parsed<T>;
}

interface Described {
  description: string;
  shownDefault?: string;
}
type WithDefault<O, T> = O extends { default: T } ? true : false;

function variable<T, O extends Described & { default?: T }>(options: O, parse: (raw: string) => Parsed<T>) {
  return { ...options, default: options.default, parse } as EnvVariable<T, WithDefault<O, T>>;
}

const said = (raw: string) => `(got "${raw}")`;

/** Free text. */
export function text<const O extends Described & { default?: string }>(options: O) {
  return variable<string, O>(options, (raw) => ({ value: raw }));
}

/** A whole number from min to max. */
export function int<const O extends Described & { default?: number; min: number; max: number }>(options: O) {
  const { min, max } = options;
  return variable<number, O>(options, (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max
      ? { value }
      : { problem: `must be a whole number from ${min} to ${max} ${said(raw)}` };
  });
}

/** true/1/yes or false/0/no, in any case. */
export function bool<const O extends Described & { default?: boolean }>(options: O) {
  return variable<boolean, O>(options, (raw) => {
    const word = raw.toLowerCase();
    if (['true', '1', 'yes'].includes(word)) return { value: true };
    if (['false', '0', 'no'].includes(word)) return { value: false };
    return { problem: `must be true or false ${said(word)}` };
  });
}

/** One of a fixed list of words; the README's meaning is the list. */
export function oneOf<const V extends string, const O extends { default: V }>(values: readonly V[], options: O) {
  const meaning = `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  return variable<V, O & Described>({ ...options, description: meaning }, (raw) =>
    (values as readonly string[]).includes(raw) ? { value: raw as V } : { problem: `must be one of ${values.join(', ')} ${said(raw)}` },
  );
}

/** A URL with one of `protocols` ("https:"). */
export function url<const O extends Described & { default?: string; protocols: readonly string[] }>(options: O) {
  return variable<string, O>(options, (raw) => {
    let protocol: string;
    try {
      protocol = new URL(raw).protocol;
    } catch {
      return { problem: 'is not a valid URL' };
    }
    return options.protocols.includes(protocol)
      ? { value: raw }
      : { problem: `must start with ${options.protocols.map((p) => `${p}//`).join(' or ')}` };
  });
}

/** A comma-separated list; blank entries are dropped. */
export function list<const O extends Described & { default?: string[] }>(options: O) {
  return variable<string[], O>(options, (raw) => ({
    value: raw
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  }));
}

/** A key of `bytes` random bytes, given in base64. */
export function base64Key<const O extends Described & { bytes: number }>(options: O) {
  const { bytes } = options;
  return variable<Buffer, O>(options, (raw) => {
    const key = Buffer.from(raw, 'base64');
    return key.length === bytes && /^[A-Za-z0-9+/]+={0,2}$/.test(raw)
      ? { value: key }
      : { problem: `must be ${bytes} random bytes in base64 (e.g. from: openssl rand -base64 ${bytes})` };
  });
}

/** A value with a parser of its own. */
export function parsed<T, const O extends Described & { default?: T }>(options: O, parse: (raw: string) => Parsed<T>) {
  return variable<T, O>(options, parse);
}

/** Time a client has to send a request's headers (slow-header attacks); the whole request gets REQUEST_TIMEOUT_SECONDS. */
export const HEADERS_TIMEOUT_SECONDS = 10;
const NONE = '(none)';

export const ENV = {
  NODE_ENV: oneOf(['production', 'development', 'test'], { default: 'production' }),
  HOST: text({ default: '0.0.0.0', description: 'Interface the web process listens on' }),
  PORT: int({ default: 3000, min: 1, max: 65535, description: 'Port for the pages, /api and /socket.io' }),
  PUBLIC_URL: url({
    protocols: ['http:', 'https:'],
    shownDefault: 'http://localhost:$PORT',
    description: 'Address printed at start, used in e-mails and canonical links',
  }),
  DATA_DIR: text({ default: './.data', description: 'Folder for the embedded database, uploads and the mail outbox' }),
  LOG_LEVEL: oneOf(['error', 'warn', 'log', 'debug', 'verbose'], { default: 'log' }),
  TRUST_PROXY: parsed(
    { default: false, description: 'Proxies in front: how many (e.g. 1) or their addresses/CIDRs; see below' },
    parseTrustProxy,
  ),
  BODY_LIMIT_BYTES: int({
    default: 1024 * 1024,
    min: 1024,
    max: 100 * 1024 * 1024,
    description: 'Largest JSON body accepted; larger gets 413',
  }),
  REQUEST_TIMEOUT_SECONDS: int({
    default: 30,
    min: HEADERS_TIMEOUT_SECONDS,
    max: 3_600,
    description: `Time a client has to send a whole request (headers: ${HEADERS_TIMEOUT_SECONDS} s); then 408`,
  }),
  KEEP_ALIVE_TIMEOUT_SECONDS: int({ default: 5, min: 1, max: 600, description: 'Idle time before a kept-alive connection is closed' }),
  CORS_ORIGINS: list({ shownDefault: NONE, description: 'Comma-separated origins allowed to call /api from another site' }),
  OPERATOR_TOKEN: parsed(
    { shownDefault: NONE, description: 'Bearer token for /api/health/details and /metrics (32+ characters); unset: 404' },
    (raw): Parsed<string> =>
      raw.length >= 32 ? { value: raw } : { problem: 'must be at least 32 characters (for example: openssl rand -hex 32)' },
  ),
  DATABASE_URL: url({
    protocols: ['postgres:', 'postgresql:'],
    shownDefault: '(embedded)',
    description: 'PostgreSQL URL; without it an embedded PostgreSQL runs under DATA_DIR',
  }),
  DATABASE_REPLICA_URL: url({
    protocols: ['postgres:', 'postgresql:'],
    shownDefault: NONE,
    description: "Read replica of DATABASE_URL: browse, search and public pages read from it; a user's own data from the primary",
  }),
  EMBEDDED_PG_PORT: int({ default: 54329, min: 1, max: 65535, description: 'Port of the embedded PostgreSQL' }),
  MIGRATE_ON_START: bool({ shownDefault: 'true when embedded, else false', description: 'Apply migrations when the web process starts' }),
  REDIS_URL: url({
    protocols: ['redis:', 'rediss:'],
    shownDefault: NONE,
    description: 'Redis for BullMQ and the socket.io adapter; without it queues use PostgreSQL',
  }),
  QUEUE_PREFIX: parsed(
    { default: 'fieldmarket', description: 'Prefix of BullMQ keys (Redis) or queue names (PostgreSQL)' },
    (raw): Parsed<string> => (/^[A-Za-z0-9_-]+$/.test(raw) ? { value: raw } : { problem: 'may hold only letters, digits, "-" and "_"' }),
  ),
  WORKERS_IN_PROCESS: bool({
    shownDefault: 'true without REDIS_URL, else false',
    description: 'Run the job workers inside the web process',
  }),
  WORKER_METRICS_PORT: int({
    min: 1,
    max: 65535,
    shownDefault: NONE,
    description: 'Port the worker process serves its /metrics on (job durations), with the operator token',
  }),
  OUTBOX_POLL_SECONDS: int({
    default: 5,
    min: 1,
    max: 300,
    description: 'How often the job outbox looks for work left behind by a crash or outage',
  }),
  JOB_LEASE_SECONDS: int({
    default: 30,
    min: 2,
    max: 600,
    description:
      "A running job's lock (renewed at half of it) and the outbox relay's lease; what a process that died held is taken up after 1-2 of these",
  }),
  DIGEST_CHECK_SECONDS: int({
    default: 60,
    min: 1,
    max: 3_600,
    description: 'How often the saved-search digest job looks for due digests; a digest goes out at the first look after its 07:00',
  }),
  SMTP_URL: url({
    protocols: ['smtp:', 'smtps:'],
    shownDefault: NONE,
    description: 'smtp:// or smtps:// URL; without it mail is written to the outbox',
  }),
  MAIL_FROM: text({ default: 'Fieldmarket <no-reply@fieldmarket.co.uk>', description: 'Sender of outgoing mail' }),
  STAFF_EMAIL: text({ default: 'support@fieldmarket.co.uk', description: 'Where contact messages are delivered' }),
  MAIL_OUTBOX_DIR: text({ shownDefault: '$DATA_DIR/outbox', description: 'Folder of the local outbox' }),
  S3_BUCKET: text({ shownDefault: NONE, description: 'Bucket for images; without it images go to UPLOADS_DIR' }),
  S3_ENDPOINT: url({
    protocols: ['http:', 'https:'],
    shownDefault: '(AWS)',
    description: 'S3-compatible endpoint URL (MinIO, s3rver, ...)',
  }),
  S3_REGION: text({ default: 'eu-west-2', description: 'S3 region' }),
  S3_ACCESS_KEY_ID: text({ shownDefault: '(SDK default chain)', description: 'S3 access key' }),
  S3_SECRET_ACCESS_KEY: text({ shownDefault: '(SDK default chain)', description: 'S3 secret key' }),
  S3_FORCE_PATH_STYLE: bool({ shownDefault: 'true when S3_ENDPOINT is set', description: 'Path-style bucket addressing' }),
  UPLOADS_DIR: text({ shownDefault: '$DATA_DIR/uploads', description: 'Folder for images on local disk' }),
  TWO_FACTOR_KEY: base64Key({
    bytes: 32,
    shownDefault: '(generated in DATA_DIR)',
    description: '32 random bytes, base64: encrypts two-factor secrets; the same in every process',
  }),
  STARTUP_WAIT_SECONDS: int({
    default: 30,
    min: 0,
    max: 3_600,
    description: 'How long to wait at start for DATABASE_URL and REDIS_URL to answer',
  }),
  SHUTDOWN_NOTICE_SECONDS: int({
    default: 0,
    min: 0,
    max: 5,
    description: 'After SIGTERM, seconds /api/health/ready answers 503 while requests are still served (behind a load balancer)',
  }),
  CONTACT_RATE_LIMIT: int({ default: 5, min: 1, max: 10_000, description: 'Contact messages accepted per client per window' }),
  IMAGE_UPLOADS_PER_HOUR: int({ default: 60, min: 1, max: 100_000, description: 'Images one user may upload per hour' }),
  SEARCH_CACHE_MS: int({
    default: 2_000,
    min: 0,
    max: 60_000,
    description:
      "How long (ms) an answer of browse and search, and a visitor's browse, rentals, category or public profile page, is reused for the same query; 0 turns it off",
  }),
  CONTACT_RATE_WINDOW_SECONDS: int({ default: 900, min: 1, max: 86_400, description: 'Length of the contact rate-limit window' }),
  API_RATE_LIMIT: int({
    default: 600,
    min: 1,
    max: 1_000_000,
    description: 'Requests to /api accepted per client per window (health probes aside)',
  }),
  API_RATE_WINDOW_SECONDS: int({ default: 60, min: 1, max: 3_600, description: 'Length of the /api rate-limit window' }),
  FRONTEND_DIR: text({ default: './frontend/dist', description: 'Built Astro site to serve; "none" serves only /api' }),
  INTERNAL_API_URL: url({
    protocols: ['http:', 'https:'],
    shownDefault: 'http://127.0.0.1:$PORT',
    description: "Where pages rendered by `astro dev` call /api; the web process's pages call it in process",
  }),
  DIAGNOSTIC_ROUTES: bool({
    shownDefault: 'true when NODE_ENV=development, else false',
    description: "Serve /api/test/realtime and /api/test/polling (developer pages' figures); off: 404",
  }),
  GOOGLE_CLIENT_ID: text({
    shownDefault: NONE,
    description: "Google sign-in's OAuth client ID; set with GOOGLE_CLIENT_SECRET, or neither",
  }),
  GOOGLE_CLIENT_SECRET: text({ shownDefault: NONE, description: "That OAuth client's secret" }),
  GOOGLE_AUTHORIZATION_URL: url({
    protocols: ['http:', 'https:'],
    default: 'https://accounts.google.com/o/oauth2/v2/auth',
    shownDefault: "Google's (see Google sign-in below)",
    description: 'Where the browser is sent to sign in with Google',
  }),
  GOOGLE_TOKEN_URL: url({
    protocols: ['http:', 'https:'],
    default: 'https://oauth2.googleapis.com/token',
    shownDefault: "Google's",
    description: 'Where the server exchanges the code for a token',
  }),
  GOOGLE_USERINFO_URL: url({
    protocols: ['http:', 'https:'],
    default: 'https://openidconnect.googleapis.com/v1/userinfo',
    shownDefault: "Google's",
    description: 'OpenID Connect userinfo endpoint (path ends in /userinfo)',
  }),
  POSTCODES_API_URL: url({
    protocols: ['http:', 'https:'],
    default: 'https://api.postcodes.io',
    description:
      'postcodes.io API (the public service, or a self-hosted copy) that postcode and outcode searches and listing locations are looked up in',
  }),
} as const satisfies Record<string, EnvVariable>;

export type EnvName = keyof typeof ENV;

/** What reading a variable gives: its type, or undefined too when it has no default. */
export type EnvValue<N extends EnvName> = (typeof ENV)[N] extends { parse: (raw: string) => Parsed<infer T> }
  ? (typeof ENV)[N]['default'] extends undefined
    ? T | undefined
    : T
  : never;

/** The README's configuration table, one row per variable: name, default, meaning. */
export function envTableRows(): Array<[name: string, shownDefault: string, description: string]> {
  return (Object.entries(ENV) as Array<[string, EnvVariable]>).map(([name, variable]) => [
    name,
    variable.shownDefault ?? shown(variable.default),
    variable.description,
  ]);
}

function shown(value: unknown): string {
  if (value === undefined) return NONE;
  return String(value);
}
