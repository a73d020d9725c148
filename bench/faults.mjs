// Fault benchmark, run as a whole program against the built product (backend/dist, workers/dist):
//   node bench/faults.mjs [messages] [smtp-down-seconds] [--concurrency=20] [--workers=2]
//                         [--drain-timeout=900] [--smtp-reply-ms=20] [--only=redis,smtp,kill,sigterm] [--keep-logs]
// Checks that no contact mail is lost under faults, and that every duplicate carries its original's
// Message-ID. Each scenario gets a fresh database (on DATABASE_URL's server, else
// postgres://postgres@127.0.0.1:5432), a redis-server of its own on a free port, an in-process SMTP
// sink (it stores each message, then answers 250 after --smtp-reply-ms), a migrate step, one web
// process and `--workers` worker processes. It posts `messages` (default 300) contact messages,
// `--concurrency` in flight, and a third into the burst injects its fault:
//   redis   - redis-server killed (-9) and started again empty on the same port
//   smtp    - the SMTP sink's port closed for `smtp-down-seconds` (default 60), then opened again; the
//             connections under way are dropped unanswered, so mails stored but not yet acknowledged
//             are sent again: duplicates, each of which must carry its original's Message-ID
//   kill    - one worker process killed (-9), a new one started
//   sigterm - one worker process stopped with SIGTERM (graceful shutdown), a new one started
// Then it waits until every outbox entry is completed (or --drain-timeout seconds pass) and compares
// the mails the sink received with the mails due (a staff copy per message, plus an acknowledgement
// where `acknowledgement_due`). Duplicates are recognised by content (the staff copy's reference, the
// acknowledgement's reference and recipient), not by Message-ID, so "same Message-ID" is a real check.
// Exits non-zero when any mail was lost, a duplicate carried another Message-ID, or a scenario failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { processLauncher, stopProcess, waitFor } from './child-processes.mjs';

// ---------------------------------------------------------------------------------------------
// Arguments
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => {
      const [key, value] = a.slice(2).split('=');
      return [key, value ?? 'true'];
    }),
);
const MESSAGES = Number(positional[0] ?? 300);
const SMTP_DOWN_SECONDS = Number(positional[1] ?? 60);
const CONCURRENCY = Number(flags.concurrency ?? 20);
const WORKERS = Number(flags.workers ?? 2);
const DRAIN_TIMEOUT_S = Number(flags['drain-timeout'] ?? 900);
const KEEP_LOGS = flags['keep-logs'] === 'true';
const SMTP_REPLY_MS = Number(flags['smtp-reply-ms'] ?? 20);
const ONLY = flags.only ? new Set(flags.only.split(',')) : undefined;
for (const [name, value, min] of [
  ['messages', MESSAGES, 3],
  ['smtp-down-seconds', SMTP_DOWN_SECONDS, 0],
  ['--concurrency', CONCURRENCY, 1],
  ['--workers', WORKERS, 1],
  ['--drain-timeout', DRAIN_TIMEOUT_S, 1],
  ['--smtp-reply-ms', SMTP_REPLY_MS, 0],
]) {
  if (!Number.isInteger(value) || value < min) {
    console.error(`${name} must be an integer >= ${min}`);
    process.exit(2);
  }
}

const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const STAFF = 'staff@fieldmarket.test';
const MAIL_DOMAIN = 'fieldmarket.test';
const ADDRESSES = Math.max(1, Math.ceil(MESSAGES / 4)); // each address writes ~4 times: the 4th is not acknowledged
const runDir = mkdtempSync(join(tmpdir(), 'fm-faults-'));
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// Everything started here is tracked, so it can be stopped by PID whatever happens.
/** @type {Set<string>} */
const databases = new Set();
/** @type {Set<SmtpSink>} */
const sinks = new Set();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => (ms / 1000).toFixed(1);
const log = (line) => console.log(`[${seconds(performance.now() - started).padStart(6)} s] ${line}`);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const { running, startProcess: launch } = processLauncher(runDir);
const startProcess = (label, command, args, env) => launch(label, command, args, { env });

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a database per scenario on the admin URL's server.
function urlFor(database) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A connected client. A shared server may have no connection slot free for a while (other clients
 * hold them all): then it waits, up to 5 minutes, saying so every 30 s.
 */
async function connect(connectionString) {
  const deadline = Date.now() + 5 * 60_000;
  let said = 0;
  for (;;) {
    const client = new pg.Client({ connectionString });
    // A connection the server ends (a database dropped with force at cleanup) is not a crash of this program.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      // 53300: too_many_connections; 57P03: cannot_connect_now.
      if (!['53300', '57P03'].includes(error?.code) || Date.now() > deadline) throw error;
      if (Date.now() - said > 30_000) {
        said = Date.now();
        log(`database server ${new URL(connectionString).host}: ${error.message}; waiting for a free connection`);
      }
      await sleep(1_000);
    }
  }
}

async function adminQuery(sql) {
  const client = await connect(ADMIN_URL);
  try {
    return await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** How many of the server's connections are in use: a full server starves the product of connections. */
async function connectionHeadroom() {
  const { rows } = await adminQuery(
    `select current_setting('max_connections')::int as max, (select count(*) from pg_stat_activity)::int as used`,
  );
  return rows[0];
}

async function createDatabase(name) {
  await adminQuery(`create database "${name}"`);
  databases.add(name);
  return urlFor(name);
}

async function dropDatabase(name) {
  await adminQuery(`drop database if exists "${name}" with (force)`);
  databases.delete(name);
}

// ---------------------------------------------------------------------------------------------
// Redis: our own server, without persistence, so a restart loses everything it held.
function startRedis(port) {
  return startProcess(
    `redis-${port}`,
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      PATH: process.env.PATH,
    },
  );
}

function redisPing(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function startRedisReady(port) {
  const redis = startRedis(port);
  await waitFor(`redis-server on ${port}`, () => redisPing(port), 10_000, redis);
  return redis;
}

// ---------------------------------------------------------------------------------------------
// SMTP sink: accepts everything, records each message's Message-ID, recipients and what it is about.
class SmtpSink {
  /** @type {Array<{ messageId: string | undefined; to: string[]; subject: string; raw: string; at: number }>} */
  received = [];
  port = 0;
  server = undefined;
  sockets = new Set();
  /** Replies not sent yet: the message is stored, the 250 is still to come. */
  pendingReplies = new Set();

  async on() {
    const { received, pendingReplies } = this;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 50,
      onData(stream, session, callback) {
        const chunks = [];
        stream.on('data', (chunk) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({
            messageId: headerOf(raw, 'Message-ID'),
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: headerOf(raw, 'Subject') ?? '',
            raw,
            at: Date.now(),
          });
          // Stored first, acknowledged a moment later, as a real server does: when the sink goes
          // down in between, the sender never hears the 250 and must send again (a duplicate).
          const reply = setTimeout(() => {
            pendingReplies.delete(reply);
            callback();
          }, SMTP_REPLY_MS);
          pendingReplies.add(reply);
        });
      },
    });
    server.on('error', () => undefined);
    server.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.port = server.server.address().port;
    this.server = server;
  }

  /** Goes down: stops listening (new connections are refused) and drops every connection at once, unanswered. */
  async off() {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const reply of this.pendingReplies) clearTimeout(reply);
    this.pendingReplies.clear();
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }
}

function headerOf(raw, name) {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
}

// ---------------------------------------------------------------------------------------------
// The product
const entries = { web: 'backend/dist/main.js', worker: 'workers/dist/main.js', migrate: 'backend/dist/cli/migrate.js' };

function productEnv(s) {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'log',
    HOST: '127.0.0.1',
    PORT: String(s.webPort),
    DATA_DIR: s.dataDir,
    DATABASE_URL: s.databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${s.redisPort}`,
    WORKERS_IN_PROCESS: 'false',
    FRONTEND_DIR: 'none',
    OUTBOX_POLL_SECONDS: '1',
    SMTP_URL: s.sink.url,
    STAFF_EMAIL: STAFF,
    MAIL_FROM: `Fieldmarket <no-reply@${MAIL_DOMAIN}>`,
    // Every message comes from 127.0.0.1: the per-client limit must not get in the way.
    CONTACT_RATE_LIMIT: '10000',
    CONTACT_RATE_WINDOW_SECONDS: '1',
    STARTUP_WAIT_SECONDS: '60',
  };
}

async function startWorker(s) {
  const worker = startProcess(`${s.key}-worker-${++s.workerCount}`, process.execPath, [entries.worker], productEnv(s));
  s.workers.push(worker);
  await waitFor(`${worker.label} ready`, async () => worker.output().includes('worker process running'), 90_000, worker);
  return worker;
}

async function startWeb(s) {
  const web = startProcess(`${s.key}-web`, process.execPath, [entries.web], productEnv(s));
  s.web = web;
  await waitFor(
    'web process ready',
    async () => (await fetch(`http://127.0.0.1:${s.webPort}/api/health`, { signal: AbortSignal.timeout(5_000) })).status > 0,
    90_000,
    web,
  );
}

async function migrate(s) {
  const run = startProcess(`${s.key}-migrate`, process.execPath, [entries.migrate], productEnv(s));
  const code = await run.exited;
  if (code !== 0) throw new Error(`migrate exited with ${code}\n${run.output()}`);
}

/** Posts `MESSAGES` contact messages, `CONCURRENCY` in flight; calls `atThird` once a third have been answered. */
async function burst(s, atThird) {
  let next = 0;
  let answered = 0;
  let fault;
  const statuses = new Map();
  const lane = async () => {
    while (next < MESSAGES) {
      const i = next++;
      let status;
      try {
        const response = await fetch(`http://127.0.0.1:${s.webPort}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `Bench Sender ${i}`,
            email: `sender-${i % ADDRESSES}@example.test`,
            subject: `Fault run ${s.key} #${i}`,
            message: `Message ${i} of the ${s.key} scenario: is the hay still for sale?`,
          }),
          signal: AbortSignal.timeout(60_000),
        });
        status = String(response.status);
        await response.arrayBuffer();
      } catch (error) {
        status = error?.cause?.code ?? error?.name ?? 'error';
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (++answered >= Math.floor(MESSAGES / 3) && !fault) {
        log(`${s.key}: ${answered} of ${MESSAGES} answered; injecting the fault`);
        fault = atThird().catch((error) => {
          s.faultError = error;
        });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return { statuses, fault: fault ?? Promise.resolve() };
}

async function scalar(client, sql) {
  return Number(Object.values((await client.query(sql)).rows[0])[0]);
}

/** Waits until every outbox entry is done, or the timeout; a progress line every 10 s. */
async function drain(s, client, faultDone) {
  const from = performance.now();
  let lastLine = from;
  let faultOver = false;
  void faultDone.then(() => (faultOver = true));
  for (;;) {
    const open = await scalar(client, 'select count(*) from outbox_job where completed_at is null').catch(() => NaN);
    const elapsed = performance.now() - from;
    if (open === 0 && faultOver) return { drained: true, ms: elapsed, open };
    if (elapsed > DRAIN_TIMEOUT_S * 1000) return { drained: false, ms: elapsed, open };
    if (performance.now() - lastLine >= 10_000) {
      lastLine = performance.now();
      const failed = await scalar(client, 'select count(*) from outbox_job where failed_at is not null').catch(() => NaN);
      log(
        `${s.key}: draining, ${seconds(elapsed)} s: ${open} outbox entries open (${failed} failed for good), ` +
          `${s.sink.received.length} mails received${faultOver ? '' : ', fault still under way'}`,
      );
    }
    await sleep(500);
  }
}

/** Compares what the sink received with what was due. */
async function tally(s, client) {
  const rows = (await client.query('select id, email, acknowledgement_due from contact_message')).rows;
  const expected = new Map(); // Message-ID -> recipient
  const byAckReference = new Map(); // "<REF8>|<email>" -> id
  for (const row of rows) {
    expected.set(`<contact-${row.id}.staff@${MAIL_DOMAIN}>`, STAFF);
    if (row.acknowledgement_due) {
      expected.set(`<contact-${row.id}.acknowledgement@${MAIL_DOMAIN}>`, row.email);
      byAckReference.set(`${row.id.slice(0, 8).toUpperCase()}|${row.email}`, row.id);
    }
  }
  // What each received mail is, by its content: the staff copy names the message's id, the
  // acknowledgement its reference (first 8 characters) and goes to the sender.
  const copies = new Map(); // logical mail -> Message-IDs of its copies, in arrival order
  let unrecognised = 0;
  let wrongRecipient = 0;
  for (const mail of s.sink.received) {
    let logical;
    const staffRef = /^Reference: ([0-9a-f-]{36})$/m.exec(mail.raw)?.[1];
    if (mail.to.includes(STAFF) && staffRef) logical = `<contact-${staffRef}.staff@${MAIL_DOMAIN}>`;
    const ackRef = /reference ([0-9A-F]{8})\)/.exec(mail.subject)?.[1];
    const ackId = ackRef && byAckReference.get(`${ackRef}|${mail.to[0]}`);
    if (!logical && ackId) logical = `<contact-${ackId}.acknowledgement@${MAIL_DOMAIN}>`;
    if (!logical || !expected.has(logical)) {
      unrecognised++;
      continue;
    }
    if (mail.to.length !== 1 || mail.to[0] !== expected.get(logical)) wrongRecipient++;
    copies.set(logical, [...(copies.get(logical) ?? []), mail.messageId]);
  }
  const receivedIds = new Map();
  for (const mail of s.sink.received) receivedIds.set(mail.messageId, (receivedIds.get(mail.messageId) ?? 0) + 1);
  let lost = 0;
  for (const id of expected.keys()) if (!receivedIds.has(id)) lost++;
  let duplicates = 0;
  let duplicatesWithOriginalId = 0;
  let wrongId = 0;
  for (const [logical, ids] of copies) {
    if (ids[0] !== logical) wrongId++;
    for (const id of ids.slice(1)) {
      duplicates++;
      if (id === ids[0] && id === logical) duplicatesWithOriginalId++;
    }
  }
  return {
    stored: rows.length,
    expected: expected.size,
    received: s.sink.received.length,
    lost,
    duplicates,
    duplicatesWithOriginalId,
    unrecognised,
    wrongRecipient,
    wrongId,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios
const scenarios = [
  {
    key: 'redis',
    title: 'Redis wiped mid-burst',
    async fault(s) {
      await stopProcess(s.redis, 'SIGKILL');
      log(`redis: redis-server killed (-9); starting it again, empty, on port ${s.redisPort}`);
      s.redis = await startRedisReady(s.redisPort);
    },
  },
  {
    key: 'smtp',
    title: `SMTP down ${SMTP_DOWN_SECONDS} s`,
    async fault(s) {
      await s.sink.off();
      log(`smtp: sink port ${s.sink.port} closed for ${SMTP_DOWN_SECONDS} s`);
      await sleep(SMTP_DOWN_SECONDS * 1000);
      await s.sink.on();
      log(`smtp: sink listening again on port ${s.sink.port}`);
    },
  },
  {
    key: 'kill',
    title: 'worker killed (-9)',
    async fault(s) {
      const victim = s.workers.shift();
      await stopProcess(victim, 'SIGKILL');
      log(`kill: ${victim.label} killed (-9); starting another`);
      await startWorker(s);
    },
  },
  {
    key: 'sigterm',
    title: 'worker SIGTERM + restart',
    async fault(s) {
      const victim = s.workers.shift();
      const t0 = performance.now();
      const code = await stopProcess(victim, 'SIGTERM');
      log(`sigterm: ${victim.label} stopped gracefully in ${seconds(performance.now() - t0)} s (exit ${code}); starting another`);
      await startWorker(s);
    },
  },
].filter((s) => !ONLY || ONLY.has(s.key));

async function runScenario(scenario) {
  const database = `fm_faults_${process.pid}_${scenario.key}`;
  const s = {
    key: scenario.key,
    sink: new SmtpSink(),
    workers: [],
    workerCount: 0,
    redisPort: await freePort(),
    webPort: await freePort(),
    dataDir: mkdtempSync(join(runDir, `${scenario.key}-data-`)),
    databaseUrl: await createDatabase(database),
  };
  sinks.add(s.sink);
  let client;
  try {
    await s.sink.on();
    s.redis = await startRedisReady(s.redisPort);
    await migrate(s);
    client = await connect(s.databaseUrl);
    await startWeb(s);
    await Promise.all(Array.from({ length: WORKERS }, () => startWorker(s)));
    log(`${s.key}: ${scenario.title}: web and ${WORKERS} worker(s) up; posting ${MESSAGES} messages, ${CONCURRENCY} in flight`);

    const burstStarted = performance.now();
    const { statuses, fault } = await burst(s, () => scenario.fault(s));
    const burstMs = performance.now() - burstStarted;
    log(`${s.key}: burst answered in ${seconds(burstMs)} s: ${[...statuses].map(([k, v]) => `${v} x ${k}`).join(', ')}`);
    const drained = await drain(s, client, fault);
    if (s.faultError) throw s.faultError;
    await sleep(1_000); // the last 250 replies are sent before the entries are marked; let stragglers land
    const result = await tally(s, client);
    const crashed = [s.web, ...s.workers].filter((p) => p.ended && !p.stopping).map((p) => p.label);
    log(
      `${s.key}: ${drained.drained ? `drained in ${seconds(drained.ms)} s` : `NOT drained after ${seconds(drained.ms)} s (${drained.open} open)`}; ` +
        `expected ${result.expected}, received ${result.received}, lost ${result.lost}, duplicates ${result.duplicates}`,
    );
    return { scenario, accepted: statuses.get('201') ?? 0, statuses, burstMs, drained, crashed, ...result };
  } finally {
    await client?.end().catch(() => undefined);
    await Promise.all([s.web, ...s.workers].filter(Boolean).map((p) => stopProcess(p)));
    if (s.redis) await stopProcess(s.redis, 'SIGKILL');
    await s.sink.off();
    sinks.delete(s.sink);
    await dropDatabase(database).catch((error) => log(`could not drop ${database}: ${error.message}`));
  }
}

let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    for (const proc of running) proc.child.kill('SIGKILL');
    for (const sink of sinks) await sink.off().catch(() => undefined);
    for (const name of databases) {
      await dropDatabase(name).catch((error) => console.error(`could not drop database ${name}: ${error.message}`));
    }
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping every process this run started (process logs kept in ${runDir})`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
const results = [];
let failed = false;
try {
  log(
    `fault benchmark: ${MESSAGES} messages per scenario, ${CONCURRENCY} in flight, ${WORKERS} worker(s), ` +
      `database server ${new URL(ADMIN_URL).host}, logs in ${runDir}`,
  );
  for (const scenario of scenarios) {
    try {
      const { max, used } = await connectionHeadroom();
      log(`${scenario.key}: database server has ${used} of ${max} connections in use`);
      results.push(await runScenario(scenario));
    } catch (error) {
      failed = true;
      log(`${scenario.key}: scenario failed: ${error instanceof Error ? error.stack : String(error)}`);
      results.push({ scenario, error });
    }
  }
} finally {
  await cleanup();
}

const columns = [
  ['scenario', 26, (r) => r.scenario.title],
  ['accepted', 8, (r) => r.accepted],
  ['expected', 8, (r) => r.expected],
  ['received', 8, (r) => r.received],
  ['lost', 5, (r) => r.lost],
  ['dups', 5, (r) => r.duplicates],
  ['dups same ID', 12, (r) => r.duplicatesWithOriginalId],
  ['drain s', 8, (r) => (r.drained.drained ? seconds(r.drained.ms) : `>${seconds(r.drained.ms)}`)],
  ['burst s', 7, (r) => seconds(r.burstMs)],
];
console.log('');
console.log(columns.map(([name, width], i) => (i === 0 ? name.padEnd(width) : name.padStart(width))).join('  '));
for (const r of results) {
  if (r.error) {
    console.log(`${r.scenario.title.padEnd(26)}  failed: ${r.error instanceof Error ? r.error.message.split('\n')[0] : String(r.error)}`);
    continue;
  }
  console.log(
    columns.map(([, width, value], i) => (i === 0 ? String(value(r)).padEnd(width) : String(value(r)).padStart(width))).join('  '),
  );
  const notes = [];
  const other = [...r.statuses].filter(([status]) => status !== '201');
  if (other.length > 0) notes.push(`not accepted: ${other.map(([k, v]) => `${v} x ${k}`).join(', ')}`);
  if (r.stored !== r.accepted) notes.push(`${r.stored} messages stored for ${r.accepted} accepted`);
  if (r.unrecognised > 0) notes.push(`${r.unrecognised} mails not recognised as due`);
  if (r.wrongRecipient > 0) notes.push(`${r.wrongRecipient} mails to the wrong recipient`);
  if (r.wrongId > 0) notes.push(`${r.wrongId} mails whose first copy had another Message-ID`);
  if (r.crashed.length > 0) notes.push(`exited on their own: ${r.crashed.join(', ')}`);
  if (!r.drained.drained) notes.push(`outbox not drained: ${r.drained.open} entries open`);
  for (const note of notes) console.log(`${''.padEnd(28)}${note}`);
  const bad = r.lost > 0 || r.duplicates !== r.duplicatesWithOriginalId || r.unrecognised > 0 || r.wrongRecipient > 0 || r.wrongId > 0;
  if (bad || !r.drained.drained) failed = true;
}
console.log(`\nwhole run: ${seconds(performance.now() - started)} s`);
if (failed || KEEP_LOGS) console.log(`process logs kept in ${runDir}`);
else rmSync(runDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
