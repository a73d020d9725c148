// The cluster, proven: run as a whole program against the built product (./fieldmarket build first):
//   node bench/cluster.mjs [--sockets=2000] [--seconds=60] [--only=1,2,3,4,5,6] [--keep]
// Starts on this machine, each on its own port and data folder (ports 3470-3477):
//   HAProxy (Debian's package) on 3470 with deploy/haproxy.cfg, the configuration docs/deploy.md gives;
//   two web processes (WORKERS_IN_PROCESS=false, TRUST_PROXY=1) on 3471 and 3472; two worker processes;
//   a PostgreSQL primary (3473) and a streaming replica of it (3474, pg_basebackup), from
//   /usr/lib/postgresql/<version>/bin, run as the postgres user when this runs as root; redis-server
//   (3475, appendonly yes, as compose configures it); the s3rver S3 stand-in (3476); an SMTP sink
//   (3477, in this process, so the checks can read every mail).
// Then the checks of docs/deploy.md, each printing its figures and counted failed when it falls short:
//   1. user journeys through the proxy   2. rolling restart under load   3. a web process killed (-9)
//   with 2,000 sockets   4. a worker killed (-9) during uploads and mails   5. Redis restarted
//   6. the read replica: a seller's own edit at once while replay is paused; search throughput.
// Everything is stopped at the end (also on Ctrl-C); the run folder is removed unless a check failed
// or --keep. Exits 1 when any check fell short; the summary is the last line.
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import pg from 'pg';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { io } from 'socket.io-client';
import { processLauncher, stopProcess, waitFor } from './child-processes.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SOCKETS = Number(option('sockets', 2000));
const LOAD_SECONDS = Number(option('seconds', 60));
const ONLY = new Set(option('only', '1,2,3,4,5,6').split(','));
const KEEP = args.includes('--keep');

// Below the kernel's ephemeral range (32768-60999), so no outgoing connection holds one of them.
const PORT = { proxy: 3470, web: [3471, 3472], primary: 3473, replica: 3474, redis: 3475, s3: 3476, smtp: 3477 };
const PROXY = `http://127.0.0.1:${PORT.proxy}`;
const MAIL_DOMAIN = 'fieldmarket.test';
const STAFF = `staff@${MAIL_DOMAIN}`;
const BUCKET = 'fieldmarket-images';
const DATABASE = 'fieldmarket';
const PAIRS = 200;
const IMAGE_UPLOADS_PER_HOUR = 6;
const REPO = resolve(new URL('..', import.meta.url).pathname);
const PG_BIN = findPostgresBin();
const runDir = mkdtempSync(join(tmpdir(), 'fm-cluster-'));
chmodSync(runDir, 0o755); // the postgres user reads its data folders under it
const started = performance.now();
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const seconds = (ms) => (ms / 1000).toFixed(1);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => (xs.length ? sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))] : NaN);
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const log = (line) => console.log(`[${seconds(performance.now() - started).padStart(6)} s] ${line}`);

function findPostgresBin() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const version = versions.find((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_basebackup`));
  if (!version) {
    console.error('PostgreSQL server binaries not found: apt-get install postgresql (initdb, pg_ctl, pg_basebackup)');
    process.exit(2);
  }
  return `/usr/lib/postgresql/${version}/bin`;
}

// ---------------------------------------------------------------------------------------------
// Processes: every one started here is tracked and stopped by its PID at the end.
const launcher = processLauncher(runDir);
const running = launcher.running;
const startProcess = (label, command, commandArgs, env = {}) =>
  launcher.startProcess(label, command, commandArgs, { cwd: REPO, env: { PATH: process.env.PATH, ...env } });

const asRoot = process.getuid?.() === 0;
/** Runs a PostgreSQL program as the postgres user (initdb and postgres refuse root). */
async function pgTool(tool, toolArgs) {
  const [command, commandArgs] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', `${PG_BIN}/${tool}`, ...toolArgs]]
    : [`${PG_BIN}/${tool}`, toolArgs];
  try {
    return await promisify(execFile)(command, commandArgs, { cwd: runDir, maxBuffer: 10_000_000 });
  } catch (error) {
    throw new Error(`${tool} failed: ${error.stderr || error.message}`, { cause: error });
  }
}

function ownedByPostgres(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (asRoot) {
    const [uid, gid] = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'))
      .split(':')
      .slice(2, 4)
      .map(Number);
    chownSync(dir, uid, gid);
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL primary and streaming replica
const primaryDir = join(runDir, 'pg-primary');
const replicaDir = join(runDir, 'pg-replica');
const pgStarted = [];
const dbUrl = (port) => `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;

async function pgStart(dir, port) {
  const sockets = ownedByPostgres(join(runDir, 'pg-sockets'));
  const options = `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c max_connections=300 -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c fsync=on`;
  await pgTool('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-w', '-t', '120', '-o', options, 'start']);
  pgStarted.push(dir);
}

async function startDatabases() {
  ownedByPostgres(primaryDir);
  await pgTool('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']);
  await pgStart(primaryDir, PORT.primary);
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${PORT.primary}/postgres` });
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  ownedByPostgres(replicaDir);
  // -R writes standby.signal and primary_conninfo: a streaming replica from its first start.
  await pgTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(PORT.primary),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  await pgStart(replicaDir, PORT.replica);
  const replica = new pg.Client({ connectionString: dbUrl(PORT.replica) });
  await replica.connect();
  const { rows } = await replica.query('select pg_is_in_recovery() as standby');
  await replica.end();
  if (!rows[0].standby) throw new Error('the replica is not in recovery');
}

// ---------------------------------------------------------------------------------------------
// Redis (append-only file, as compose runs it), s3rver, SMTP sink, HAProxy
const redisDir = join(runDir, 'redis');
let redis;

async function redisPing() {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port: PORT.redis });
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

async function startRedis() {
  mkdirSync(redisDir, { recursive: true });
  redis = startProcess('redis', 'redis-server', [
    '--port',
    String(PORT.redis),
    '--bind',
    '127.0.0.1',
    '--dir',
    redisDir,
    '--appendonly',
    'yes',
    '--save',
    '',
  ]);
  await waitFor('redis-server', redisPing, 15_000, redis);
}

async function startS3() {
  const dir = join(runDir, 's3');
  mkdirSync(dir);
  const script = `import S3rver from 's3rver';
    await new S3rver({ address: '127.0.0.1', port: ${PORT.s3}, silent: true, directory: ${JSON.stringify(dir)},
      configureBuckets: [{ name: '${BUCKET}', configs: [] }] }).run();
    console.log('s3rver listening');`;
  const s3 = startProcess('s3rver', process.execPath, ['--input-type=module', '-e', script]);
  await waitFor('s3rver', async () => s3.output().includes('s3rver listening'), 30_000, s3);
  return s3;
}

/** Object keys stored in the bucket (s3rver keeps each object as files under its folder). */
function storedObjects() {
  const root = join(runDir, 's3', BUCKET);
  const keys = new Set();
  const walk = (dir) => {
    for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else keys.add(path.slice(root.length + 1).replace(/\._S3rver_.*$/, ''));
    }
  };
  walk(root);
  return [...keys];
}

const mails = [];
let smtp;
async function startSmtp() {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
        const header = (name) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
        mails.push({
          messageId: header('Message-ID'),
          subject: header('Subject') ?? '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          // Quoted-printable undone, so links and references read as sent.
          raw: raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  smtp.on('error', () => undefined);
  await new Promise((done) => smtp.listen(PORT.smtp, '127.0.0.1', done));
}

const statsSocket = join(runDir, 'haproxy.sock');
let proxy;
async function startProxy() {
  proxy = startProcess('haproxy', 'haproxy', ['-W', '-db', '-f', join(REPO, 'deploy/haproxy.cfg')], {
    FM_PROXY_BIND: `127.0.0.1:${PORT.proxy}`,
    FM_WEB1: `127.0.0.1:${PORT.web[0]}`,
    FM_WEB2: `127.0.0.1:${PORT.web[1]}`,
    FM_PROXY_STATS: statsSocket,
  });
  await waitFor('haproxy', async () => existsSync(statsSocket), 15_000, proxy);
}

/** One command to HAProxy's admin socket. */
function proxyCommand(command) {
  return new Promise((done, fail) => {
    const socket = createConnection(statsSocket);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => done(answer));
    socket.on('error', fail);
    socket.write(`${command}\n`);
  });
}

/** Each web server as the proxy sees it: status (UP/DOWN...) and its current sessions. */
async function proxyServers() {
  const [header, ...rows] = (await proxyCommand('show stat')).trim().split('\n');
  const names = header.replace(/^# /, '').split(',');
  const servers = {};
  for (const row of rows) {
    const cells = Object.fromEntries(row.split(',').map((v, i) => [names[i], v]));
    if (cells.pxname === 'web' && cells.svname.startsWith('web'))
      servers[cells.svname] = { status: cells.status, sessions: Number(cells.scur) };
  }
  return servers;
}

// ---------------------------------------------------------------------------------------------
// The product
const TWO_FACTOR_KEY = randomBytes(32).toString('base64');
const web = [undefined, undefined];
const workers = [];
let workerCount = 0;

function productEnv(extra = {}) {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'log',
    HOST: '127.0.0.1',
    PUBLIC_URL: PROXY,
    TRUST_PROXY: '1',
    SHUTDOWN_NOTICE_SECONDS: '5',
    // Longer than HAProxy keeps an idle connection to a server, so the proxy, not the process, closes it.
    KEEP_ALIVE_TIMEOUT_SECONDS: '65',
    DATABASE_URL: dbUrl(PORT.primary),
    // Browse, search and other people's listing pages read the replica.
    DATABASE_REPLICA_URL: dbUrl(PORT.replica),
    MIGRATE_ON_START: 'false',
    REDIS_URL: `redis://127.0.0.1:${PORT.redis}`,
    QUEUE_PREFIX: 'fmcluster',
    WORKERS_IN_PROCESS: 'false',
    OUTBOX_POLL_SECONDS: '1',
    SMTP_URL: `smtp://127.0.0.1:${PORT.smtp}`,
    MAIL_FROM: `Fieldmarket <no-reply@${MAIL_DOMAIN}>`,
    STAFF_EMAIL: STAFF,
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${PORT.s3}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    TWO_FACTOR_KEY,
    // Every request of this program reaches the product from one address (the proxy's X-Forwarded-For).
    API_RATE_LIMIT: '1000000',
    CONTACT_RATE_LIMIT: '10000',
    IMAGE_UPLOADS_PER_HOUR: String(IMAGE_UPLOADS_PER_HOUR),
    STARTUP_WAIT_SECONDS: '60',
    ...extra,
  };
}

async function migrate() {
  const run = startProcess('migrate', process.execPath, ['backend/dist/cli/migrate.js'], productEnv({ DATA_DIR: join(runDir, 'migrate') }));
  const code = await run.exited;
  if (code !== 0) throw new Error(`migrate exited with ${code}\n${run.output()}`);
}

/** What the web processes run with besides productEnv (check 6 turns the replica off and on). */
let webSettings = {};

/** Starts web process i (0 or 1) and waits until the proxy sends it requests again. */
async function startWeb(i) {
  const label = `web${i + 1}`;
  const env = productEnv({ PORT: String(PORT.web[i]), DATA_DIR: join(runDir, label), ...webSettings });
  const proc = startProcess(label, process.execPath, ['backend/dist/main.js'], env);
  web[i] = proc;
  await waitFor(`${label} ready`, async () => (await fetch(`http://127.0.0.1:${PORT.web[i]}/api/health/ready`)).ok, 120_000, proc);
  await waitFor(`${label} UP in the proxy`, async () => (await proxyServers())[label]?.status === 'UP', 30_000, proc);
  return proc;
}

async function startWorker() {
  const label = `worker${++workerCount}`;
  const proc = startProcess(label, process.execPath, ['workers/dist/main.js'], productEnv({ DATA_DIR: join(runDir, label) }));
  workers.push(proc);
  await waitFor(`${label} ready`, async () => proc.output().includes('worker process running'), 120_000, proc);
  return proc;
}

// ---------------------------------------------------------------------------------------------
// Clients
/** A browser: a cookie jar and the header the site's pages send; requests go through the proxy unless told. */
class Browser {
  constructor(cookie = '') {
    this.cookie = cookie;
  }

  async call(method, path, body, { base = PROXY, headers = {}, raw } = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'x-requested-with': 'fieldmarket',
        origin: PROXY,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(60_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      const jar = new Map(
        this.cookie
          .split('; ')
          .filter(Boolean)
          .map((p) => p.split('=')),
      );
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
      this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  }
}

async function expectStatus(what, promise, status) {
  const response = await promise;
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text.slice(0, 300)}`);
  return response.json?.data;
}

/** The newest mail to `address` carrying a link to `path`, waited for; returns its token. */
async function mailedToken(address, path) {
  let token;
  await waitFor(
    `${path} mail to ${address}`,
    async () => {
      const mail = mails.filter((m) => m.to.includes(address) && m.raw.includes(path)).at(-1);
      token = mail && new RegExp(`${path}\\?token=([\\w%-]+)`).exec(mail.raw)?.[1];
      return Boolean(token);
    },
    60_000,
  );
  return decodeURIComponent(token);
}

let people = 0;
/** Signs up through the proxy, confirms from the mailed link, signs in. */
async function signedUpPerson(name) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${++people}.${Date.now()}@example.co.uk`;
  const password = 'Hay-bales-in-June';
  const browser = new Browser();
  await expectStatus('sign-up', browser.call('POST', '/api/auth/signup', { name, email, password }), 201);
  await expectStatus(
    'verify e-mail',
    browser.call('POST', '/api/auth/verify-email', { token: await mailedToken(email, '/verify-email') }),
    200,
  );
  const signedIn = await expectStatus('sign-in', browser.call('POST', '/api/auth/signin', { email, password }), 200);
  return { browser, email, password, id: signedIn.user.id };
}

const photo = (width, height) =>
  sharp(randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toBuffer();

function multipart(files) {
  const boundary = `----fieldmarket${randomBytes(8).toString('hex')}`;
  const chunks = files.flatMap((data, i) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="photo-${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    data,
    Buffer.from('\r\n'),
  ]);
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(browser, files) {
  const { raw, headers } = multipart(files);
  return browser.call('POST', '/api/upload/multiple', undefined, { raw, headers });
}

/** Three widths in WebP and AVIF (the widest is capped at the photo's own width). */
const VARIANTS_PER_IMAGE = 6;
const variantsOf = (imageId) =>
  storedObjects()
    .filter((key) => key.startsWith(`images/${imageId}/`))
    .map((key) => key.slice(`images/${imageId}/`.length));

/**
 * A socket as the site's pages hold one (frontend/src/lib/socket.ts: WebSocket, reconnecting 2, 4, 8 s
 * apart), with the browser's catch-up (frontend/src/lib/live-events.ts): after each reconnect, and on
 * an event ahead of a gap, GET /api/realtime/events?after=<last seq>; each seq handled once.
 */
class LiveClient {
  constructor(user, base = PROXY) {
    this.user = user;
    this.base = base;
    this.handled = new Set();
    this.contiguous = 0;
    this.messages = new Map(); // message id -> times handed on
    this.live = 0;
    this.caughtUp = 0;
    this.connects = 0;
    this.catchUpFailures = 0;
    this.catchingUp = Promise.resolve();
  }

  open() {
    this.socket = io(this.base, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnectionDelay: 2_000,
      reconnectionDelayMax: 8_000,
      randomizationFactor: 0,
      extraHeaders: { cookie: this.user.cookie, origin: PROXY },
    });
    this.socket.on('NEW_MESSAGE', (payload) => {
      if (payload.seq > this.contiguous + 1) this.catchUp();
      this.hand(payload.seq, 'NEW_MESSAGE', payload, 'live');
    });
    this.socket.on('disconnect', () => (this.disconnectedAt ??= Date.now()));
    return new Promise((done, fail) => {
      this.socket.on('realtime:ready', (ready) => {
        if (!ready.signedIn) return fail(new Error('socket not signed in'));
        this.connects++;
        if (this.disconnectedAt !== undefined) {
          this.reconnectedAt = Date.now();
          this.catchUp();
        }
        done();
      });
      this.socket.once('connect_error', (error) => (this.connects === 0 ? fail(error) : undefined));
    });
  }

  hand(seq, type, payload, how) {
    if (typeof seq !== 'number' || this.handled.has(seq)) return;
    this.handled.add(seq);
    while (this.handled.has(this.contiguous + 1)) this.contiguous++;
    if (type !== 'NEW_MESSAGE') return;
    const id = payload?.data?.message?.id;
    if (!id) return;
    this.messages.set(id, (this.messages.get(id) ?? 0) + 1);
    if (how === 'live') this.live++;
    else this.caughtUp++;
  }

  /** Asks for what was missed; a failed call is tried again a second later (the browser polls on). */
  catchUp() {
    this.catchingUp = this.catchingUp.then(async () => {
      for (let failures = 0; ;) {
        const page = await new Browser(this.user.cookie)
          .call('GET', `/api/realtime/events?after=${this.contiguous}`)
          .catch((error) => ({ status: error?.cause?.code ?? 'error' }));
        if (page.status !== 200) {
          this.catchUpFailures++;
          if (++failures > 30) {
            this.catchUpError = `catch-up: ${page.status}`;
            return;
          }
          await sleep(1_000);
          continue;
        }
        const { events, latest_seq: latest } = page.json.data;
        for (const event of events) this.hand(event.seq, event.type, event.payload, 'caught up');
        if (events.length === 0 || this.contiguous >= latest) return;
      }
    });
  }

  close() {
    this.socket?.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Data written straight to the database: users with a session each, conversations between pairs
async function seed(db, count) {
  const { rows } = await db.query(
    `insert into app_user (id, email, email_verified_at, provider, role, full_name, created_at, updated_at, last_active_at)
     select gen_random_uuid(), 'cluster-' || i || '@example.com', now(), 'password', 'user', 'Cluster Farmer ' || i, now(), now(), now()
       from generate_series(1, $1::int) as i
     returning id`,
    [count],
  );
  const tokens = rows.map(() => randomBytes(32).toString('base64url'));
  await db.query(
    `insert into user_session (id, token_hash, user_id, created_at, last_seen_at, expires_at, authenticated_at)
     select gen_random_uuid(), h, u, now(), now(), now() + interval '30 days', now() from unnest($1::text[], $2::uuid[]) as t(h, u)`,
    [tokens.map((t) => createHash('sha256').update(t).digest('hex')), rows.map((r) => r.id)],
  );
  const users = rows.map((row, i) => ({ id: row.id, cookie: `fm_session=${tokens[i]}` }));
  // Pairs (users[k], users[PAIRS + k]): the second sells a live listing, the first writes to them about it.
  const owners = users.slice(PAIRS, 2 * PAIRS);
  const { rows: listings } = await db.query(
    `insert into listing (id, seller_id, type, category_id, title, description, price_pence, price_unit, vat, location_text,
       latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at, published_at, expires_at,
       removed_with_seller)
     select gen_random_uuid(), s, 'sale', 2, 'Cluster tractor ' || n, 'A tractor for the cluster checks, serviced every year.', 1500000,
       'total', 'no-vat', 'Taunton, England', 51.0, -3.1, '{}'::jsonb, 'live', false, 0, 0, now(), now(), now(), now() + interval '90 days', false
       from unnest($1::uuid[]) with ordinality as t(s, n)
     returning id, seller_id`,
    [owners.map((u) => u.id)],
  );
  await db.query(`insert into listing_search_word (word) values ('cluster'), ('tractor') on conflict do nothing`);
  const listingOf = new Map(listings.map((r) => [r.seller_id, r.id]));
  const { rows: conversations } = await db.query(
    `insert into conversation (id, starter_id, owner_id, listing_id, title, created_at, updated_at)
     select gen_random_uuid(), s, o, l, 'Cluster tractor', now(), now() from unnest($1::uuid[], $2::uuid[], $3::uuid[]) as t(s, o, l)
     returning id, starter_id`,
    [users.slice(0, PAIRS).map((u) => u.id), owners.map((u) => u.id), owners.map((u) => listingOf.get(u.id))],
  );
  const conversationOf = new Map(conversations.map((c) => [c.starter_id, c.id]));
  const pairs = users.slice(0, PAIRS).map((sender, k) => ({ sender, receiver: owners[k], conversationId: conversationOf.get(sender.id) }));
  return { users, pairs, listingIds: listings.map((r) => r.id) };
}

// ---------------------------------------------------------------------------------------------
// The checks. Each returns { ok, figures: [text] }.
const results = [];

async function check(number, title, run) {
  if (!ONLY.has(String(number))) return;
  log(`check ${number}: ${title}`);
  const from = performance.now();
  try {
    const { ok, figures } = await run();
    results.push({ number, title, ok, figures });
  } catch (error) {
    results.push({ number, title, ok: false, figures: [`stopped: ${error instanceof Error ? error.message : String(error)}`] });
  }
  const result = results.at(-1);
  for (const figure of result.figures) log(`  check ${number}: ${figure}`);
  log(`check ${number} ${result.ok ? 'PASSED' : 'FAILED'} in ${seconds(performance.now() - from)} s (load ${loadAverage()})`);
}

/** Check 1: the user journeys, through the proxy. */
async function journeys() {
  const figures = [];
  const timed = async (label, step) => {
    const t0 = performance.now();
    const value = await step();
    figures.push(`${label}: ${Math.round(performance.now() - t0)} ms`);
    return value;
  };
  const seller = await timed('seller signs up, confirms from the mail, signs in', () => signedUpPerson('Sally Seller'));
  const buyer = await timed('buyer signs up, confirms, signs in', () => signedUpPerson('Bob Buyer'));
  const images = await timed('two photos uploaded', async () =>
    (await expectStatus('upload', upload(seller.browser, [await photo(1600, 1200), await photo(1600, 1200)]), 201)).images.map((i) => i.id),
  );
  const title = `Clusterproof ${randomBytes(3).toString('hex')} baler`;
  const listing = await timed('listing posted with them', () =>
    expectStatus(
      'post listing',
      seller.browser.call('POST', '/api/listings', {
        type: 'sale',
        category: 'equipment',
        title,
        description: 'Round baler, always kept inside, net wrap, serviced every spring. Can deliver within 30 miles.',
        price: 12500,
        price_unit: 'total',
        vat: 'plus-vat',
        location: 'Taunton',
        place_id: '2636177',
        attributes: { make: 'Krone', model: 'Comprima', year: 2018 },
        confirm_over_18: true,
        seller_type: 'private',
        images,
      }),
      201,
    ),
  );
  let served = 0;
  await timed('variants made by the workers, on S3, served through the proxy', async () => {
    await waitFor('photo variants on S3', async () => images.every((id) => variantsOf(id).length >= VARIANTS_PER_IMAGE), 180_000);
    for (const id of images) {
      for (const file of variantsOf(id)) {
        const response = await fetch(`${PROXY}/media/images/${id}/${file}`);
        if (response.status !== 200) throw new Error(`/media/images/${id}/${file}: ${response.status}`);
        served++;
      }
    }
  });
  figures.push(`variants of the two photos on S3 and served: ${served}`);
  const visitor = new Browser();
  await timed('found by search, and its page shown', async () => {
    await waitFor(
      'search finds the listing',
      async () => {
        const found = await visitor.call('GET', `/api/listings?q=${encodeURIComponent(title.split(' ')[1])}`);
        return found.status === 200 && JSON.stringify(found.json).includes(listing.id);
      },
      30_000,
    );
    await expectStatus('browse', visitor.call('GET', '/api/listings'), 200);
    const one = await expectStatus('listing', visitor.call('GET', `/api/listings/${listing.id}`), 200);
    if (one.title !== title) throw new Error('the listing came back with another title');
    const page = await visitor.call('GET', '/');
    if (page.status !== 200) throw new Error(`home page: ${page.status}`);
  });

  // Live delivery between two people whose sockets sit on different web processes.
  const conversation = await expectStatus(
    'start conversation',
    buyer.browser.call('POST', '/api/messages/conversations', { listingId: listing.id }),
    200,
  );
  const clients = [new LiveClient({ cookie: seller.browser.cookie }), new LiveClient({ cookie: buyer.browser.cookie })];
  const processesOf = [];
  for (const client of clients) {
    for (let attempt = 0; ; attempt++) {
      const before = await proxyServers();
      await client.open();
      const after = await proxyServers();
      const on = Object.keys(after).find((name) => after[name].sessions > before[name].sessions);
      if (on && !processesOf.includes(on)) {
        processesOf.push(on);
        break;
      }
      if (attempt > 10) throw new Error('could not place the two sockets on different web processes');
      client.close();
    }
  }
  figures.push(`seller's socket on ${processesOf[0]}, buyer's on ${processesOf[1]} (proxy's session counts)`);
  const delivered = async (client, sender, text) => {
    const t0 = performance.now();
    const sent = await expectStatus(
      'send',
      sender.browser.call('POST', '/api/messages/send', { conversationId: conversation.id, content: text }),
      201,
    );
    await waitFor(`live delivery of "${text}"`, async () => client.messages.has(sent.id), 10_000);
    return Math.round(performance.now() - t0);
  };
  figures.push(`buyer -> seller live: ${await delivered(clients[0], buyer, 'Is the baler still for sale?')} ms`);
  figures.push(`seller -> buyer live: ${await delivered(clients[1], seller, 'Yes, come and see it on Saturday.')} ms`);
  await timed('the seller has a NEW_MESSAGE notification', () =>
    waitFor(
      'notification',
      async () => JSON.stringify((await seller.browser.call('GET', '/api/notifications')).json).includes('NEW_MESSAGE'),
      30_000,
    ),
  );
  for (const client of clients) client.close();

  // Staff inbox: a member of staff (granted by the command, second factor on) reads a visitor's message.
  const subject = `Cluster check ${randomUUID()}`;
  await expectStatus(
    'contact',
    visitor.call('POST', '/api/contact', {
      name: 'Vera Visitor',
      email: 'vera@example.co.uk',
      subject,
      message: 'Where do I find the hay?',
    }),
    201,
  );
  const staff = await signedUpPerson('Stan Staff');
  const grant = startProcess(
    'staff-grant',
    process.execPath,
    ['backend/dist/cli/staff.js', 'grant', staff.email],
    productEnv({ DATA_DIR: join(runDir, 'cli') }),
  );
  if ((await grant.exited) !== 0) throw new Error(`staff grant: ${grant.output()}`);
  const staffBrowser = new Browser();
  await expectStatus('staff sign-in', staffBrowser.call('POST', '/api/auth/signin', { email: staff.email, password: staff.password }), 200);
  const { secret } = await expectStatus('two-factor setup', staffBrowser.call('POST', '/api/profile/two-factor/setup'), 200);
  await expectStatus(
    'two-factor verify',
    staffBrowser.call('POST', '/api/profile/two-factor/verify', { token: await generate({ secret }) }),
    200,
  );
  await timed("the staff inbox shows the visitor's message", () =>
    waitFor('staff inbox', async () => JSON.stringify((await staffBrowser.call('GET', '/api/staff/inbox')).json).includes(subject), 30_000),
  );
  return { ok: true, figures };
}

/** Sends load through the proxy until `until()` says stop; returns every answer and the writes acknowledged. */
async function loadGenerator({ pairs, listingIds, lanes = 8, until }) {
  const statuses = new Map();
  const failures = [];
  const ackedMessages = [];
  const ackedContacts = [];
  const timings = [];
  let n = 0;
  let views = 0;
  let messages = 0;
  const visitor = new Browser();
  const lane = async (laneNo) => {
    while (!until()) {
      const i = n++;
      const pick = i % 20;
      const t0 = performance.now();
      let kind;
      let response;
      try {
        if (pick < 8) {
          kind = 'search';
          response = await visitor.call('GET', `/api/listings?q=tractor&page=${1 + (i % 5)}`);
        } else if (pick < 13) {
          kind = 'listing view';
          response = await visitor.call('GET', `/api/listings/${listingIds[views++ % listingIds.length]}`);
        } else if (pick < 17) {
          kind = 'message';
          // Each pair in turn: one sender writes at most SENDS_PER_MINUTE (30) a minute.
          const pair = pairs[messages++ % pairs.length];
          const content = `load ${laneNo}-${i}`;
          response = await new Browser(pair.sender.cookie).call('POST', '/api/messages/send', {
            conversationId: pair.conversationId,
            content,
          });
          if (response.status === 201) ackedMessages.push(response.json.data.id);
        } else {
          kind = 'contact';
          const subject = `Load ${randomUUID()}`;
          response = await visitor.call('POST', '/api/contact', {
            name: 'Lena Load',
            email: `lena${i % 50}@example.co.uk`,
            subject,
            message: 'Is the straw still for sale?',
          });
          if (response.status === 201) ackedContacts.push(subject);
        }
        const key = `${kind} ${response.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (response.status >= 300) failures.push(`${kind}: ${response.status} ${response.text.slice(0, 120)}`);
      } catch (error) {
        const key = `${kind} ${error?.cause?.code ?? error?.name ?? 'error'}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        failures.push(`${kind}: ${key}`);
      }
      timings.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, k) => lane(k)));
  return { statuses, failures, ackedMessages, ackedContacts, timings, requests: n };
}

async function missingWrites(db, { ackedMessages, ackedContacts }) {
  const { rows: m } = await db.query('select count(*)::int as n from message where id = any($1::uuid[])', [ackedMessages]);
  const { rows: c } = await db.query('select count(*)::int as n from contact_message where subject = any($1::text[])', [ackedContacts]);
  return { messages: ackedMessages.length - m[0].n, contacts: ackedContacts.length - c[0].n };
}

const statusLine = (statuses) =>
  [...statuses]
    .sort()
    .map(([k, v]) => `${v} x ${k}`)
    .join(', ');

/** Check 2: each web process stopped with SIGTERM and started again in turn, under load. */
async function rollingRestart(db, data) {
  const figures = [];
  let stop = false;
  const loadStarted = performance.now();
  const loading = loadGenerator({ ...data, until: () => stop });
  const restarts = [];
  await sleep(5_000);
  for (const i of [0, 1]) {
    const t0 = performance.now();
    const code = await stopProcess(web[i], 'SIGTERM');
    const stoppedMs = performance.now() - t0;
    await startWeb(i);
    restarts.push(
      `web${i + 1}: stopped in ${seconds(stoppedMs)} s (exit ${code}), back in rotation after ${seconds(performance.now() - t0)} s`,
    );
    await sleep(3_000);
  }
  const rest = LOAD_SECONDS * 1000 - (performance.now() - loadStarted);
  if (rest > 0) await sleep(rest);
  stop = true;
  const load = await loading;
  figures.push(...restarts);
  figures.push(`${load.requests} requests in ${seconds(performance.now() - loadStarted)} s, 8 in flight: ${statusLine(load.statuses)}`);
  figures.push(
    `response time p50 ${quantile(load.timings, 0.5).toFixed(0)} ms, p99 ${quantile(load.timings, 0.99).toFixed(0)} ms, max ${Math.max(...load.timings).toFixed(0)} ms`,
  );
  const missing = await missingWrites(db, load);
  figures.push(
    `failed requests seen by clients: ${load.failures.length} (goal 0)${load.failures.length ? `; first: ${load.failures.slice(0, 3).join(' | ')}` : ''}`,
  );
  figures.push(
    `acknowledged writes missing afterwards: ${missing.messages} of ${load.ackedMessages.length} messages, ${missing.contacts} of ${load.ackedContacts.length} contact messages (goal 0)`,
  );
  return { ok: load.failures.length === 0 && missing.messages === 0 && missing.contacts === 0 && restarts.length === 2, figures };
}

/** Check 3: a web process killed (-9) with SOCKETS sockets connected; reconnect and catch-up. */
async function killWebWithSockets(data) {
  const figures = [];
  const receivers = new Set(data.pairs.map((p) => p.receiver.id));
  const clients = data.users.slice(0, SOCKETS).map((user) => new LiveClient(user));
  const t0 = performance.now();
  for (let from = 0; from < clients.length; from += 200) await Promise.all(clients.slice(from, from + 200).map((c) => c.open()));
  const servers = await proxyServers();
  figures.push(
    `${clients.length} sockets opened through the proxy in ${seconds(performance.now() - t0)} s (web1 ${servers.web1.sessions}, web2 ${servers.web2.sessions} sessions)`,
  );
  const receiverClients = new Map(clients.filter((c) => receivers.has(c.user.id)).map((c) => [c.user.id, c]));

  const killedAt = Date.now();
  web[0].child.kill('SIGKILL');
  await web[0].exited;
  log('  check 3: web1 killed (-9); sending messages while its sockets reconnect');
  const sent = [];
  const sendFailures = [];
  const allBack = () => clients.every((c) => c.disconnectedAt === undefined || c.reconnectedAt !== undefined);
  // Messages to every pair's receiver in turn, 40 a second, until every socket is back and 3 s more
  // (at most 25 a sender: SENDS_PER_MINUTE is 30).
  const RATE = 40;
  const sends = [];
  let doneAt;
  for (let k = 0; doneAt === undefined || Date.now() < doneAt; k++) {
    if (k >= data.pairs.length * 25) break;
    const wait = killedAt + (k * 1000) / RATE - Date.now();
    if (wait > 0) await sleep(wait);
    const pair = data.pairs[k % data.pairs.length];
    sends.push(
      new Browser(pair.sender.cookie)
        .call('POST', '/api/messages/send', { conversationId: pair.conversationId, content: `outage ${k}` })
        .then(
          (r) => (r.status === 201 ? sent.push({ id: r.json.data.id, to: pair.receiver.id }) : sendFailures.push(r.status)),
          (error) => sendFailures.push(error?.cause?.code ?? 'error'),
        ),
    );
    if (doneAt === undefined && (allBack() || Date.now() - killedAt > 30_000)) doneAt = Date.now() + 3_000;
  }
  await Promise.all(sends);
  const dropped = clients.filter((c) => c.disconnectedAt !== undefined);
  const reconnectMs = dropped.filter((c) => c.reconnectedAt !== undefined).map((c) => c.reconnectedAt - killedAt);
  const notBack = dropped.length - reconnectMs.length;
  // The catch-up of the last reconnects, and the last live events, may still be under way.
  await waitFor('every message handed on', async () => sent.every((m) => receiverClients.get(m.to)?.messages.has(m.id)), 20_000).catch(
    () => undefined,
  );
  await Promise.all([...receiverClients.values()].map((c) => c.catchingUp));
  let lost = 0;
  let duplicates = 0;
  for (const m of sent) {
    const times = receiverClients.get(m.to)?.messages.get(m.id) ?? 0;
    if (times === 0) lost++;
    if (times > 1) duplicates += times - 1;
  }
  const caughtUp = [...receiverClients.values()].reduce((a, c) => a + c.caughtUp, 0);
  const catchUpErrors = [...receiverClients.values()].filter((c) => c.catchUpError).length;
  const catchUpRetries = [...receiverClients.values()].reduce((a, c) => a + c.catchUpFailures, 0);
  figures.push(`sockets dropped with web1: ${dropped.length}; reconnected through the proxy: ${reconnectMs.length}, not back: ${notBack}`);
  figures.push(
    `reconnect time after the kill: p50 ${seconds(quantile(reconnectMs, 0.5))} s, max ${seconds(Math.max(0, ...reconnectMs))} s (goal under 10 s)`,
  );
  figures.push(
    `messages sent meanwhile: ${sent.length} (${sendFailures.length} sends failed: ${[...new Set(sendFailures)].join(', ') || 'none'}); ${caughtUp} reached their recipient by catch-up`,
  );
  figures.push(
    `lost ${lost}, duplicate ${duplicates} (goal 0/0); catch-up calls answered other than 200 and tried again: ${catchUpRetries}, given up: ${catchUpErrors}`,
  );
  for (const c of clients) c.close();
  await startWeb(0);
  const maxReconnect = Math.max(0, ...reconnectMs);
  return {
    ok: dropped.length > 0 && notBack === 0 && maxReconnect < 10_000 && lost === 0 && duplicates === 0 && catchUpErrors === 0,
    figures,
  };
}

/** The outbox is done: every job handed over and completed. */
async function drained(db, timeoutMs) {
  const t0 = performance.now();
  await waitFor(
    'outbox drained',
    async () => (await db.query('select count(*)::int as n from outbox_job where completed_at is null')).rows[0].n === 0,
    timeoutMs,
  );
  return performance.now() - t0;
}

/** The contact mails due for `subjects`, and what arrived: lost, repeated (same Message-ID), repeated under another Message-ID. */
async function contactMailTally(db, subjects) {
  const { rows } = await db.query('select id, email, acknowledgement_due from contact_message where subject = any($1::text[])', [subjects]);
  const due = new Map(); // Message-ID -> recipient
  for (const row of rows) {
    due.set(`<contact-${row.id}.staff@${MAIL_DOMAIN}>`, STAFF);
    if (row.acknowledgement_due) due.set(`<contact-${row.id}.acknowledgement@${MAIL_DOMAIN}>`, row.email);
  }
  // Which message a mail is about, by its content: the staff copy names the message's id.
  const ids = new Set(rows.map((r) => r.id));
  const copies = new Map();
  let otherId = 0;
  for (const mail of mails) {
    const ref = /Reference: ([0-9a-f-]{36})/.exec(mail.raw)?.[1];
    if (ref && ids.has(ref) && mail.to.includes(STAFF) && mail.messageId !== `<contact-${ref}.staff@${MAIL_DOMAIN}>`) otherId++;
    if (due.has(mail.messageId)) copies.set(mail.messageId, (copies.get(mail.messageId) ?? 0) + 1);
  }
  let lost = 0;
  let repeated = 0;
  for (const id of due.keys()) {
    const n = copies.get(id) ?? 0;
    if (n === 0) lost++;
    repeated += Math.max(0, n - 1);
  }
  return { due: due.size, lost, repeated, otherId };
}

/** Check 4: a worker killed (-9) during a burst of photo uploads and contact mails. */
async function killWorker(db, data) {
  const figures = [];
  const uploaders = data.users.slice(2 * PAIRS, 2 * PAIRS + 20);
  const photos = await Promise.all(Array.from({ length: 4 }, () => photo(1200, 900)));
  const subjects = [];
  const uploaded = [];
  const statuses = new Map();
  const count = (key) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  let answered = 0;
  let killed;
  const total = uploaders.length + 150;
  const visitor = new Browser();
  const jobs = [
    ...uploaders.map((user, k) => async () => {
      const r = await upload(new Browser(user.cookie), [photos[k % 4], photos[(k + 1) % 4]]);
      count(`upload ${r.status}`);
      if (r.status === 201) uploaded.push(...r.json.data.images.map((i) => i.id));
    }),
    ...Array.from({ length: 150 }, (_, i) => async () => {
      const subject = `Burst ${randomUUID()}`;
      const r = await visitor.call('POST', '/api/contact', {
        name: 'Wyn Worker',
        email: `wyn${i % 40}@example.co.uk`,
        subject,
        message: 'Do you deliver hay?',
      });
      count(`contact ${r.status}`);
      if (r.status === 201) subjects.push(subject);
    }),
  ].sort(() => Math.random() - 0.5);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      await jobs[next++]().catch((error) => count(`error ${error?.cause?.code ?? error?.name}`));
      if (++answered >= Math.floor(total / 3) && !killed) {
        const victim = workers.shift();
        killed = (async () => {
          victim.child.kill('SIGKILL');
          await victim.exited;
          log(`  check 4: ${victim.label} killed (-9) after ${answered} of ${total} requests; starting another`);
          await startWorker();
        })();
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 8 }, lane));
  await killed;
  const drainMs = await drained(db, 300_000);
  await waitFor(
    'photos processed',
    async () => {
      const { rows } = await db.query(`select count(*)::int as n from image where id = any($1::uuid[]) and status <> 'processing'`, [
        uploaded,
      ]);
      return rows[0].n === uploaded.length;
    },
    300_000,
  );
  await sleep(1_000);
  const { rows: imageStates } = await db.query(`select status, count(*)::int as n from image where id = any($1::uuid[]) group by status`, [
    uploaded,
  ]);
  const ready = imageStates.find((r) => r.status === 'ready')?.n ?? 0;
  const missingVariants = uploaded.filter((id) => variantsOf(id).length < VARIANTS_PER_IMAGE).length;
  const tally = await contactMailTally(db, subjects);
  figures.push(
    `burst: ${statusLine(statuses)}; all jobs done ${seconds(performance.now() - t0)} s after it began (outbox drained ${seconds(drainMs)} s after the last answer)`,
  );
  figures.push(
    `photos: ${uploaded.length} uploaded, ${ready} ready (${imageStates.map((r) => `${r.n} ${r.status}`).join(', ')}), ${missingVariants} missing variants on S3`,
  );
  figures.push(
    `mails: ${tally.due} due, lost ${tally.lost}, repeated with the same Message-ID ${tally.repeated}, repeated under another Message-ID ${tally.otherId} (goal 0, any, 0)`,
  );
  return {
    ok:
      ready === uploaded.length &&
      uploaded.length === 40 &&
      missingVariants === 0 &&
      tally.lost === 0 &&
      tally.otherId === 0 &&
      subjects.length === 150,
    figures,
  };
}

/** Check 5: Redis restarted (append-only file) under load; queues, socket adapter and rate limits recover. */
async function restartRedis(db, data) {
  const figures = [];
  const pids = web.map((w) => w.pid);
  // Receivers' sockets straight on web2, messages posted straight to web1: every delivery crosses the adapter.
  const pairs = data.pairs.slice(0, 20);
  const receivers = pairs.map((p) => new LiveClient(p.receiver, `http://127.0.0.1:${PORT.web[1]}`));
  await Promise.all(receivers.map((c) => c.open()));
  const crossing = async (label) => {
    const sentIds = [];
    for (const [k, pair] of pairs.entries()) {
      const r = await new Browser(pair.sender.cookie).call(
        'POST',
        '/api/messages/send',
        { conversationId: pair.conversationId, content: `${label} ${k}` },
        { base: `http://127.0.0.1:${PORT.web[0]}` },
      );
      if (r.status === 201) sentIds.push({ id: r.json.data.id, client: receivers[k] });
    }
    const t0 = performance.now();
    await waitFor(`${label}: live across processes`, async () => sentIds.every((m) => m.client.messages.has(m.id)), 10_000).catch(
      () => undefined,
    );
    const live = sentIds.filter((m) => m.client.messages.has(m.id)).length;
    return { sent: sentIds.length, live, ms: performance.now() - t0 };
  };
  const before = await crossing('before');
  // The rate-limit store: one person uses up their uploads for the hour before the restart.
  const limited = new Browser(data.users[2 * PAIRS + 30].cookie);
  const uploadOne = async () => upload(limited, [await photo(400, 300)]);
  const first = await upload(limited, await Promise.all(Array.from({ length: IMAGE_UPLOADS_PER_HOUR }, () => photo(400, 300))));

  let stop = false;
  const loading = loadGenerator({ ...data, lanes: 6, until: () => stop });
  await sleep(5_000);
  const t0 = performance.now();
  const code = await stopProcess(redis, 'SIGTERM');
  await startRedis();
  const redisMs = performance.now() - t0;
  log(`  check 5: redis-server stopped (exit ${code}) and started again on its append-only file in ${seconds(redisMs)} s`);
  await sleep(10_000);
  stop = true;
  const load = await loading;
  const after = await crossing('after');
  const limitedAfter = await uploadOne();
  const drainMs = await drained(db, 300_000);
  await sleep(1_000);
  const missing = await missingWrites(db, load);
  const tally = await contactMailTally(db, load.ackedContacts);
  for (const c of receivers) c.close();
  const sameProcesses = web.every((w, i) => w.pid === pids[i] && !w.ended);
  figures.push(`load around the restart: ${statusLine(load.statuses)}`);
  figures.push(
    `socket adapter: messages posted to web1 for sockets on web2, live: before ${before.live}/${before.sent}, after ${after.live}/${after.sent} (within ${seconds(after.ms)} s)`,
  );
  figures.push(
    `rate-limit store: uploads this hour ${first.status} for ${IMAGE_UPLOADS_PER_HOUR}, then after the restart ${limitedAfter.status} (goal 201 then 429: the count survived and is read again)`,
  );
  figures.push(
    `queues: outbox drained ${seconds(drainMs)} s after the load; contact mails due ${tally.due}, lost ${tally.lost}, repeated ${tally.repeated} (same Message-ID)`,
  );
  figures.push(
    `acknowledged writes missing: ${missing.messages} of ${load.ackedMessages.length} messages, ${missing.contacts} of ${load.ackedContacts.length} contact messages; web processes not restarted: ${sameProcesses}`,
  );
  const ok =
    before.live === before.sent &&
    after.sent === pairs.length &&
    after.live === after.sent &&
    first.status === 201 &&
    limitedAfter.status === 429 &&
    tally.lost === 0 &&
    tally.otherId === 0 &&
    missing.messages === 0 &&
    missing.contacts === 0 &&
    sameProcesses;
  return { ok, figures };
}

/** Searches only, `lanes` in flight, for `ms`: answers a second (2xx only). */
async function searchThroughput(ms, lanes = 16) {
  const visitor = new Browser();
  const queries = ['q=tractor', 'q=cluster', 'q=tractor&page=2', 'sort=newest', 'q=tractor&page=3', 'page=2'];
  let ok = 0;
  let other = 0;
  const until = performance.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (performance.now() < until) {
        const r = await visitor.call('GET', `/api/listings?${queries[n++ % queries.length]}`).catch(() => ({ status: 0 }));
        if (r.status >= 200 && r.status < 300) ok++;
        else other++;
      }
    }),
  );
  return { perSecond: ok / (ms / 1000), other };
}

async function restartWebs(settings) {
  webSettings = settings;
  for (const i of [0, 1]) {
    await stopProcess(web[i], 'SIGTERM');
    await startWeb(i);
  }
}

/** Check 6: browse and search read the replica; a seller sees their own edit at once while it lags. */
async function replicaReads() {
  const figures = [];
  const replica = new pg.Client({ connectionString: dbUrl(PORT.replica) });
  await replica.connect();
  try {
    const seller = await signedUpPerson('Rita Replica');
    const images = (await expectStatus('upload', upload(seller.browser, [await photo(800, 600)]), 201)).images.map((i) => i.id);
    const body = (title, price) => ({
      type: 'sale',
      category: 'equipment',
      title,
      description: 'Reversible, well kept, new points and shins last season. Collection from the farm or delivery at cost.',
      price,
      price_unit: 'total',
      vat: 'no-vat',
      location: 'Taunton',
      place_id: '2636177',
      attributes: { make: 'Kverneland', model: 'LB 100', year: 2012 },
      confirm_over_18: true,
      seller_type: 'private',
      images,
    });
    const word = `Replicaplough${randomBytes(3).toString('hex')}`;
    const listing = await expectStatus('post', seller.browser.call('POST', '/api/listings', body(`${word} four furrow`, 4200)), 201);
    const visitor = new Browser();
    const visitorSees = async () => (await visitor.call('GET', `/api/listings/${listing.id}`)).json?.data?.title;
    await waitFor('the replica has the listing', async () => (await visitorSees()) === `${word} four furrow`, 30_000);
    await replica.query('select pg_wal_replay_pause()');
    await waitFor(
      'replay paused',
      async () => (await replica.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s === 'paused',
      10_000,
    );
    const t0 = performance.now();
    await expectStatus('edit', seller.browser.call('PUT', `/api/listings/${listing.id}`, body(`${word} four furrow, reduced`, 3600)), 200);
    // Through the proxy, so on either web process: the seller's page and My Listings read the primary.
    const own = [];
    for (let k = 0; k < 4; k++) own.push((await seller.browser.call('GET', `/api/listings/${listing.id}`)).json?.data?.title);
    const mine = JSON.stringify((await seller.browser.call('GET', '/api/listings/mine')).json);
    const sellerAtOnce = own.every((title) => title === `${word} four furrow, reduced`) && mine.includes(`${word} four furrow, reduced`);
    const visitorBefore = await visitorSees();
    figures.push(
      `replay paused: the seller saw their edit at once (${Math.round(performance.now() - t0)} ms after saving, 4 reads and My Listings): ${sellerAtOnce}; a visitor's listing page (replica) still showed "${visitorBefore}"`,
    );
    await replica.query('select pg_wal_replay_resume()');
    const t1 = performance.now();
    await waitFor('the replica catches up', async () => (await visitorSees()) === `${word} four furrow, reduced`, 30_000);
    figures.push(`replay resumed: the visitor saw the edit ${Math.round(performance.now() - t1)} ms later`);
    const lagged = visitorBefore === `${word} four furrow`;

    // Search throughput, replica against the primary alone, the search cache off, alternating runs.
    const runs = { primary: [], replica: [] };
    for (const mode of ['primary', 'replica', 'primary', 'replica']) {
      await restartWebs({ SEARCH_CACHE_MS: '0', ...(mode === 'primary' ? { DATABASE_REPLICA_URL: '' } : {}) });
      await searchThroughput(3_000); // warm-up
      const run = await searchThroughput(15_000);
      runs[mode].push(run.perSecond);
      log(
        `  check 6: searches with ${mode === 'primary' ? 'the primary alone' : 'the replica'}: ${run.perSecond.toFixed(0)}/s (${run.other} not 2xx; load ${loadAverage()})`,
      );
    }
    await restartWebs({});
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    figures.push(
      `search throughput (16 in flight, cache off, alternating runs of 15 s): primary alone ${runs.primary.map((x) => x.toFixed(0)).join(', ')}/s; ` +
        `with the replica ${runs.replica.map((x) => x.toFixed(0)).join(', ')}/s; replica/primary ${(mean(runs.replica) / mean(runs.primary)).toFixed(2)} (means)`,
    );
    return { ok: sellerAtOnce && lagged, figures };
  } finally {
    await replica.query('select pg_wal_replay_resume()').catch(() => undefined);
    await replica.end();
  }
}

// ---------------------------------------------------------------------------------------------
let cleaning;
async function cleanup() {
  cleaning ??= (async () => {
    await stopProcess(proxy, 'SIGTERM', 5_000);
    await Promise.all([...web, ...workers].map((p) => stopProcess(p, 'SIGTERM', 25_000)));
    await Promise.all([...running].filter((p) => p !== redis).map((p) => stopProcess(p, 'SIGTERM', 10_000)));
    await stopProcess(redis, 'SIGTERM', 10_000);
    for (const dir of pgStarted.reverse())
      await pgTool('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']).catch((e) => console.error(e.message));
    await new Promise((done) => (smtp ? smtp.close(done) : done()));
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping everything this run started (logs in ${runDir})`);
    void cleanup().finally(() => process.exit(130));
  });
}

let db;
let setupError;
try {
  log(`cluster run: logs in ${runDir}; PostgreSQL from ${PG_BIN}; load ${loadAverage()}`);
  await startDatabases();
  await startRedis();
  await startS3();
  await startSmtp();
  await migrate();
  await startProxy();
  await Promise.all([startWeb(0), startWeb(1), startWorker(), startWorker()]);
  log(
    `up: haproxy ${PROXY} -> web1 :${PORT.web[0]}, web2 :${PORT.web[1]}; 2 workers; PostgreSQL :${PORT.primary} + replica :${PORT.replica}; redis :${PORT.redis}; s3rver :${PORT.s3}; smtp :${PORT.smtp}`,
  );
  db = new pg.Client({ connectionString: dbUrl(PORT.primary) });
  await db.connect();
  const data = await seed(db, Math.max(SOCKETS, 2 * PAIRS + 40));
  await check(1, 'user journeys through the proxy', journeys);
  await check(2, `rolling restart under ${LOAD_SECONDS} s of load`, () => rollingRestart(db, data));
  await check(3, `a web process killed (-9) with ${SOCKETS} sockets connected`, () => killWebWithSockets(data));
  await check(4, 'a worker killed (-9) during photo uploads and mails', () => killWorker(db, data));
  await check(5, 'Redis restarted with persistence', () => restartRedis(db, data));
  await check(6, 'the read replica', replicaReads);
} catch (error) {
  setupError = error;
  log(`the cluster could not be set up: ${error instanceof Error ? error.stack : String(error)}`);
} finally {
  await db?.end().catch(() => undefined);
  await cleanup();
}
const failed = results.filter((r) => !r.ok);
const ok = !setupError && failed.length === 0 && results.length > 0;
if (!ok || KEEP) log(`logs kept in ${runDir}`);
else rmSync(runDir, { recursive: true, force: true });
console.log(
  `cluster: ${results.map((r) => `check ${r.number} ${r.ok ? 'passed' : 'FAILED'}`).join(', ') || 'no check ran'}` +
    `${setupError ? ', set-up FAILED' : ''}; ${ok ? 'all passed' : `${failed.length + (setupError ? 1 : 0)} short`} (${seconds(performance.now() - started)} s, load ${loadAverage()})`,
);
process.exit(ok ? 0 : 1);
