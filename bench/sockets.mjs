// Live-channel benchmark, run as a whole program against the built product (backend/dist):
//   node bench/sockets.mjs [--sockets=10000] [--samples=600] [--rate=20] [--pairs=200]
//                          [--profile-samples=100] [--skip-redis] [--cpu-prof=dir] [--timeline]
//                          [--one-on-redis] [--node-args=--flag,--flag=value]
// Creates a fresh database (on DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432) and
// writes straight into it (no sign-up round trips) N users with a session each, and `pairs` pairs of
// them with a conversation about a listing of the second one's. Then:
//  1. one web process (workers in process): opens N authenticated sockets (WebSocket, session cookie)
//     and reads the process's memory per socket. Chat: `samples` messages at a steady `rate` a second
//     (open loop: each send starts on schedule, whatever the earlier ones are doing), each from a
//     pair's first user: POST /api/messages/send -> stored (committed) -> Realtime.toUser -> the other
//     participant's socket receives NEW_MESSAGE. Reports p50/p99 send-to-receive, the POST's own
//     response time, and the load average at that moment. Second scenario (`profile-samples`, 0
//     skips it): PUT /api/profile -> user.profile-updated -> notifications subscriber (job) ->
//     Realtime -> PROFILE_UPDATED, one at a time.
//  2. two web processes on Redis (REDIS_URL, default redis://127.0.0.1:6379, under a key prefix of
//     the run's own, removed at the end): N/2 sockets on each; every sender's socket and POST are on
//     the first process, every receiver's socket on the second.
// The idle sockets are held by a child process of the bench (the pairs' sockets by the bench
// itself), so the bench's own garbage collection with 10,000 client sockets does not count as
// server latency; the bench's event-loop delay is reported with each figure all the same.
// --timeline: after each chat run, when its 12 slowest messages were sent and the server's GC pauses over 5 ms
// (a full collection's with the marking it did on the main thread before its pause),
// in seconds into the run (a stall shows as a run of slow sends, each a little faster than the one before).
// --node-args: Node/V8 options for the web processes only, comma-separated (the bench itself runs without them).
// --one-on-redis: the one-process run keeps its queues on Redis instead of PostgreSQL (to tell their costs apart).
// --cpu-prof=dir: the web processes run with node --cpu-prof and write a profile each into dir when
// they stop (read it with node bench/cpu-profile-summary.mjs <file>).
import { fork, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { io } from 'socket.io-client';

const args = process.argv.slice(2);
// --name=value: everything after the first '=' (a value may hold '=' itself, as --node-args does).
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SOCKETS = Number(option('sockets', 10_000));
const SAMPLES = Number(option('samples', 600));
const RATE = Number(option('rate', 20));
const PAIRS = Math.min(Number(option('pairs', 200)), Math.floor(SOCKETS / 2));
const PROFILE_SAMPLES = Number(option('profile-samples', 100));
const SKIP_REDIS = args.includes('--skip-redis');
const CPU_PROF = option('cpu-prof', undefined);
const TIMELINE = args.includes('--timeline');
// Node options for the web processes only (not the bench's own), e.g. --node-args=--max-semi-space-size=64.
const SERVER_NODE_ARGS = option('node-args', '').split(',').filter(Boolean);
const ONE_ON_REDIS = args.includes('--one-on-redis');
const ONE_PROCESS = ONE_ON_REDIS ? 'one web process (queues on Redis)' : 'one web process';
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const CONNECT_BATCH = 250;
const RECEIVE_TIMEOUT_MS = 10_000;
const runDir = mkdtempSync(join(tmpdir(), 'fm-sockets-bench-'));
const runId = randomBytes(4).toString('hex');
const dbName = `fm_sockets_bench_${runId}`;
const servers = [];
const redisPrefixes = [];
const sockets = [];
const figures = [];
const holders = [];
/** The web processes' garbage collections: when (bench clock), which kind, how long the process paused. */
const gcPauses = [];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs) => quantile(xs, 0.5);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The 1-minute load average now and, where the kernel reports it, the share of the last 10 s in
 * which runnable tasks waited for a CPU (/proc/pressure/cpu): the machine may be shared, so every
 * figure carries both.
 */
function load() {
  const average = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  let pressure = '';
  try {
    pressure = `, runnable tasks waiting for a CPU ${/some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]}%`;
  } catch {
    // no pressure information on this kernel
  }
  return `${average}${pressure}`;
}

/** Resident memory of a process now (VmRSS), in MB. */
function rssMbOf(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.replace(/\D+/g, '')) / 1024;
}

async function freePort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** N users, each with a session whose token we keep: as if each had signed in. */
async function writeUsers(db, n) {
  const users = [];
  for (let from = 0; from < n; from += 1_000) {
    const count = Math.min(1_000, n - from);
    const { rows } = await db.query(
      `insert into app_user (id, email, email_verified_at, provider, role, full_name, created_at, updated_at, last_active_at)
       select gen_random_uuid(), 'bench-' || i || '@example.com', now(), 'password', 'user', 'Bench Farmer ' || i, now(), now(), now()
         from generate_series($1::int, $2::int) as i
       returning id`,
      [from + 1, from + count],
    );
    const tokens = rows.map(() => randomBytes(32).toString('base64url'));
    await db.query(
      `insert into user_session (id, token_hash, user_id, created_at, last_seen_at, expires_at, authenticated_at)
       select gen_random_uuid(), h, u, now(), now(), now() + interval '30 days', now() from unnest($1::text[], $2::uuid[]) as t(h, u)`,
      [tokens.map((t) => createHash('sha256').update(t).digest('hex')), rows.map((r) => r.id)],
    );
    rows.forEach((row, i) => users.push({ id: row.id, cookie: `fm_session=${tokens[i]}` }));
  }
  return users;
}

/**
 * `count` pairs (users[k], users[half + k]): the second one sells a live listing (equipment), the
 * first one has a conversation with them about it. Sockets split at `half` in the two-process run,
 * so each pair's sender and receiver sit on different processes there.
 */
async function writeConversations(db, users, count) {
  const half = Math.floor(users.length / 2);
  const starters = users.slice(0, count);
  const owners = users.slice(half, half + count);
  const { rows } = await db.query(
    `insert into listing (id, seller_id, type, category_id, title, description, price_pence, price_unit, vat, location_text,
       latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at, published_at, expires_at,
       removed_with_seller)
     select gen_random_uuid(), s, 'sale', 2, 'Bench tractor ' || n, 'A tractor for the live-channel benchmark.', 1500000, 'total',
       'no-vat', 'Taunton, England', 51.0, -3.1, '{}'::jsonb, 'live', false, 0, 0, now(), now(), now(), now() + interval '90 days', false
       from unnest($1::uuid[]) with ordinality as t(s, n)
     returning id, seller_id`,
    [owners.map((u) => u.id)],
  );
  const listingOf = new Map(rows.map((r) => [r.seller_id, r.id]));
  const { rows: conversations } = await db.query(
    `insert into conversation (id, starter_id, owner_id, listing_id, title, created_at, updated_at)
     select gen_random_uuid(), s, o, l, 'Bench tractor', now(), now() from unnest($1::uuid[], $2::uuid[], $3::uuid[]) as t(s, o, l)
     returning id, starter_id`,
    [starters.map((u) => u.id), owners.map((u) => u.id), owners.map((u) => listingOf.get(u.id))],
  );
  const conversationOf = new Map(conversations.map((c) => [c.starter_id, c.id]));
  return starters.map((sender, k) => ({ sender, receiver: owners[k], conversationId: conversationOf.get(sender.id) }));
}

async function startWeb(env, label) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profiling = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF, label)}`] : [];
  // --trace-gc: each collection's pause, read from the server's output (the rest passes through).
  const child = spawn(process.execPath, [...profiling, ...SERVER_NODE_ARGS, '--trace-gc', 'backend/dist/main.js'], {
    env: { ...env, PORT: String(port), PUBLIC_URL: base },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  createInterface({ input: child.stdout }).on('line', (line) => {
    const gc = /: (Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Sweep)\b.*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/.exec(line);
    // A full collection's marking, where it ran partly on the main thread: "(+ 145.9 ms in 230 steps since start of
    // marking, ..., walltime since start of marking 300 ms)", main-thread time the pause alone does not show.
    const marking = /\(\+ ([\d.]+) ms in \d+ steps since start of marking.*?walltime since start of marking ([\d.]+) ms\)/.exec(line);
    if (gc)
      gcPauses.push({
        at: performance.now(),
        kind: gc[1],
        ms: Number(gc[2]),
        marking: marking ? { mainMs: Number(marking[1]), overMs: Number(marking[2]) } : undefined,
      });
    else console.log(line);
  });
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the product did not become healthy');
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  return { base, pid: child.pid, child };
}

async function stopWeb(server) {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Opens one authenticated socket per user on `base`, in batches; resolves once each is ready. */
async function connectAll(base, users) {
  const opened = [];
  for (let from = 0; from < users.length; from += CONNECT_BATCH) {
    const batch = users.slice(from, from + CONNECT_BATCH).map(
      (user) =>
        new Promise((resolve, reject) => {
          const socket = io(base, {
            path: '/socket.io',
            transports: ['websocket'],
            reconnection: false,
            extraHeaders: { cookie: user.cookie, origin: base },
          });
          socket.once('realtime:ready', (ready) => (ready.signedIn ? resolve(socket) : reject(new Error('socket not signed in'))));
          socket.once('connect_error', reject);
          sockets.push(socket);
          user.socket = socket;
        }),
    );
    opened.push(...(await Promise.all(batch)));
  }
  return opened;
}

function closeAll() {
  for (const socket of sockets.splice(0)) socket.close();
}

/** A child process holding idle sockets: { base, users } opens them and answers the count; 'close' ends it. */
function holdInChild() {
  process.on('message', (message) => {
    if (message === 'close') {
      closeAll();
      process.exit(0);
    }
    connectAll(message.base, message.users).then(
      (opened) => process.send({ opened: opened.length }),
      (error) => process.send({ error: String(error) }),
    );
  });
}

/** Opens sockets for `users` on `base` in a holder child process; resolves with how many. */
async function holdSockets(base, users) {
  const child = fork(new URL(import.meta.url).pathname, ['--holder'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  holders.push(child);
  const answer = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the socket holder stopped (${code})`)));
    child.send({ base, users: users.map(({ id, cookie }) => ({ id, cookie })) });
  });
  if (answer.error) throw new Error(`holding sockets: ${answer.error}`);
  return answer.opened;
}

async function releaseHolders() {
  await Promise.all(
    holders.splice(0).map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', resolve);
          child.send('close');
        }),
    ),
  );
}

/** Idle sockets for everyone but the pairs (in holders, one per process), then the pairs' own (here). */
async function connectEveryone(users, pairs, baseOf) {
  const inPairs = new Set(pairs.flatMap((p) => [p.sender.id, p.receiver.id]));
  const idle = new Map();
  for (const user of users.filter((u) => !inPairs.has(u.id))) {
    const base = baseOf(user);
    idle.set(base, [...(idle.get(base) ?? []), user]);
  }
  const paired = users.filter((u) => inPairs.has(u.id));
  const [opened] = await Promise.all([
    Promise.all([...idle].map(([base, group]) => holdSockets(base, group))),
    Promise.all(paired.map((user) => connectAll(baseOf(user), [user]))),
  ]);
  return opened.reduce((a, b) => a + b, 0) + paired.length;
}

const awaiting = new Map();

/** Each receiver's socket hands NEW_MESSAGE to whoever waits for that message's text. */
function listenForMessages(pairs) {
  for (const { receiver } of pairs)
    receiver.socket.on('NEW_MESSAGE', (payload) => awaiting.get(payload?.data?.message?.content)?.(performance.now()));
}

/** One chat message from the pair's sender, timed from the POST until the receiver's socket has it. */
async function sendOne(pair, text, base) {
  let timer;
  const received = new Promise((resolve, reject) => {
    awaiting.set(text, resolve);
    timer = setTimeout(() => reject(new Error(`NEW_MESSAGE "${text}" did not arrive within ${RECEIVE_TIMEOUT_MS} ms`)), RECEIVE_TIMEOUT_MS);
  });
  const t0 = performance.now();
  const response = await fetch(`${base}/api/messages/send`, {
    method: 'POST',
    headers: { origin: base, 'x-requested-with': 'bench', 'content-type': 'application/json', cookie: pair.sender.cookie },
    body: JSON.stringify({ conversationId: pair.conversationId, content: text }),
  });
  const responded = performance.now() - t0;
  if (!response.ok) throw new Error(`POST /api/messages/send: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  try {
    return { latency: (await received) - t0, response: responded };
  } finally {
    clearTimeout(timer);
    awaiting.delete(text);
  }
}

/**
 * `samples` messages at `rate` a second, round the pairs, each started on schedule (open loop);
 * `via(pair)` is the base URL the POST goes to.
 */
async function timeMessages(label, pairs, samples, rate, via) {
  loopDelay.reset();
  const started = performance.now();
  const runs = [];
  for (let i = 0; i < samples; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const pair = pairs[i % pairs.length];
    const at = performance.now() - started;
    runs.push(sendOne(pair, `bench ${label} ${i}`, via(pair)).then((r) => ({ ...r, at })));
  }
  const results = await Promise.all(runs);
  const duringRun = gcPauses.filter((p) => p.at >= started);
  if (TIMELINE) {
    const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const slowest = results.toSorted((a, b) => b.latency - a.latency).slice(0, 12);
    console.log(
      `${label}: the 12 slowest, sent at (into the run): ${slowest.map((r) => `${seconds(r.at)} ${r.latency.toFixed(0)} ms`).join(', ')}`,
    );
    const long = duringRun.filter((p) => p.ms > 5 || (p.marking?.mainMs ?? 0) > 5);
    const marked = (p) =>
      p.marking ? ` (+ ${p.marking.mainMs} ms of marking on the main thread over the ${p.marking.overMs} ms before)` : '';
    console.log(
      `${label}: GC pauses over 5 ms: ${long.map((p) => `${seconds(p.at - started)} ${p.kind} ${p.ms} ms${marked(p)}`).join(', ') || 'none'}`,
    );
  }
  const pauses = duringRun.map((p) => p.ms);
  return {
    latencies: results.map((r) => r.latency),
    responses: results.map((r) => r.response),
    load: load(),
    benchLoopMaxMs: loopDelay.max / 1e6,
    gc: {
      count: pauses.length,
      max: Math.max(0, ...pauses),
      total: pauses.reduce((a, b) => a + b, 0),
      seconds: (performance.now() - started) / 1000,
    },
  };
}

/**
 * Times `samples` profile changes one after the other, each by a different user: from sending the
 * PUT to the user's socket receiving PROFILE_UPDATED. `via(user)` is the base URL the PUT goes to.
 */
async function timeProfileEvents(users, samples, via) {
  const latencies = [];
  const responses = [];
  loopDelay.reset();
  for (let i = 0; i < samples; i++) {
    const user = users[Math.floor((i * users.length) / samples)];
    const base = via(user);
    const received = new Promise((resolve) => user.socket.once('PROFILE_UPDATED', resolve));
    const t0 = performance.now();
    const response = await fetch(`${base}/api/profile`, {
      method: 'PUT',
      headers: { origin: base, 'x-requested-with': 'bench', 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ full_name: `Bench Farmer ${i} ${Date.now()}` }),
    });
    responses.push(performance.now() - t0);
    if (!response.ok) throw new Error(`PUT /api/profile: ${response.status} ${await response.text()}`);
    await received;
    latencies.push(performance.now() - t0);
  }
  return { latencies, responses, load: load(), benchLoopMaxMs: loopDelay.max / 1e6 };
}

function report(label, path, { latencies, responses, load, benchLoopMaxMs, gc }) {
  const figure = {
    label,
    path,
    p50: median(latencies),
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    response: median(responses),
    responseP99: quantile(responses, 0.99),
    // From the answer reaching the bench to the event reaching it (the push starts before the answer is sent).
    afterP50: median(latencies.map((l, i) => l - responses[i])),
    afterP99: quantile(
      latencies.map((l, i) => l - responses[i]),
      0.99,
    ),
    count: latencies.length,
    load,
    benchLoopMaxMs,
    gc,
  };
  figures.push(figure);
  console.log(
    `${label}, ${path}: p50 ${figure.p50.toFixed(1)} ms, p99 ${figure.p99.toFixed(1)} ms, max ${figure.max.toFixed(1)} ms (${figure.count} events);` +
      ` the request's own response p50 ${figure.response.toFixed(1)} ms, p99 ${figure.responseP99.toFixed(1)} ms (event / response ${(figure.p50 / figure.response).toFixed(2)}x);` +
      ` load ${load}; the bench's longest event-loop stall ${benchLoopMaxMs.toFixed(0)} ms`,
  );
  console.log(`  event after the answer: p50 ${figure.afterP50.toFixed(1)} ms, p99 ${figure.afterP99.toFixed(1)} ms`);
  if (gc)
    console.log(
      `  the web processes' garbage collection meanwhile: ${gc.count} pauses in ${gc.seconds.toFixed(0)} s, longest ${gc.max.toFixed(1)} ms, ` +
        `${gc.total.toFixed(0)} ms in all`,
    );
  return figure;
}

/** Both scenarios against the processes given: the chat path at a steady rate, then the profile path. */
/** Transactions committed in the bench database so far (PostgreSQL's statistics, flushed about once a second). */
async function commits(db) {
  await sleep(1_500);
  const { rows } = await db.query(`select xact_commit::int as n from pg_stat_database where datname = current_database()`);
  return rows[0].n;
}

async function measure(label, pairs, users, viaMessage, viaProfile, db) {
  await timeMessages(`${label} warm-up`, pairs, Math.min(20, pairs.length), RATE, viaMessage);
  // The database's background rate (job queue polling and the like), then the rate while sending.
  let t0 = performance.now();
  const idleFrom = await commits(db);
  await sleep(5_000);
  const idlePerSecond = ((await commits(db)) - idleFrom) / ((performance.now() - t0) / 1000);
  const before = await commits(db);
  t0 = performance.now();
  const chat = report(label, 'message POST -> NEW_MESSAGE', await timeMessages(label, pairs, SAMPLES, RATE, viaMessage));
  const after = await commits(db);
  chat.commitsPerMessage = (after - before - idlePerSecond * ((performance.now() - t0) / 1000)) / SAMPLES;
  chat.idleCommitsPerSecond = idlePerSecond;
  console.log(
    `  database: ${idlePerSecond.toFixed(0)} transactions a second when idle (job queue polling and the like), ` +
      `${chat.commitsPerMessage.toFixed(1)} more per message (the request, the event log, the notification job)`,
  );
  if (PROFILE_SAMPLES > 0) {
    await timeProfileEvents(users, 5, viaProfile);
    report(label, 'PUT /api/profile -> PROFILE_UPDATED', await timeProfileEvents(users, PROFILE_SAMPLES, viaProfile));
  }
  return chat;
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl.href,
    REDIS_URL: ONE_ON_REDIS ? REDIS_URL : '',
    HOST: '127.0.0.1',
    DATA_DIR: runDir,
    FRONTEND_DIR: 'none',
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT: '1000000',
    QUEUE_PREFIX: `fmbench_${runId}`,
  };
  if (ONE_ON_REDIS) redisPrefixes.push(env.QUEUE_PREFIX);
  const migrate = spawn(process.execPath, ['backend/dist/cli/migrate.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if ((await new Promise((resolve) => migrate.once('exit', resolve))) !== 0) throw new Error('migrate failed');
  const db = new pg.Client({ connectionString: dbUrl.href });
  await db.connect();
  let t0 = performance.now();
  const users = await writeUsers(db, SOCKETS);
  const pairs = await writeConversations(db, users, PAIRS);
  console.log(
    `${SOCKETS} users with sessions and ${PAIRS} conversations written in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `${SAMPLES} messages at ${RATE}/s per run; load ${load()}`,
  );
  const half = Math.floor(SOCKETS / 2);
  // The profile scenario's users: the pairs' (their sockets are in this process).
  const pairUsers = pairs.flatMap((p) => [p.sender, p.receiver]);
  loopDelay.enable();

  // 1. One web process.
  const one = await startWeb({ ...env, WORKERS_IN_PROCESS: 'true' }, 'one');
  const rssBefore = rssMbOf(one.pid);
  t0 = performance.now();
  await connectEveryone(users, pairs, () => one.base);
  const connectS = (performance.now() - t0) / 1000;
  await sleep(2_000);
  const rssAfter = rssMbOf(one.pid);
  const kbPerSocket = ((rssAfter - rssBefore) * 1024) / SOCKETS;
  console.log(
    `${ONE_PROCESS}: ${SOCKETS} sockets open in ${connectS.toFixed(1)} s (${(SOCKETS / connectS).toFixed(0)}/s); ` +
      `RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MB, ${kbPerSocket.toFixed(1)} kB per socket; load ${load()}`,
  );
  listenForMessages(pairs);
  const atOne = () => one.base;
  const oneChat = await measure(ONE_PROCESS, pairs, pairUsers, atOne, atOne, db);
  closeAll();
  await releaseHolders();
  await stopWeb(one);

  let twoChat;
  let twoKbPerSocket;
  if (!SKIP_REDIS) {
    // 2. Two web processes sharing rooms through Redis: senders (and their POSTs) on a, receivers on b.
    const redisEnv = { ...env, REDIS_URL, WORKERS_IN_PROCESS: 'true', QUEUE_PREFIX: `fmbench_${runId}_redis` };
    redisPrefixes.push(redisEnv.QUEUE_PREFIX);
    const [a, b] = [await startWeb(redisEnv, 'redis-a'), await startWeb(redisEnv, 'redis-b')];
    const [rssA, rssB] = [rssMbOf(a.pid), rssMbOf(b.pid)];
    t0 = performance.now();
    const byIndex = new Map(users.map((u, i) => [u.id, i]));
    await connectEveryone(users, pairs, (user) => (byIndex.get(user.id) < half ? a.base : b.base));
    const twoConnectS = (performance.now() - t0) / 1000;
    await sleep(2_000);
    twoKbPerSocket = ((rssMbOf(a.pid) - rssA + rssMbOf(b.pid) - rssB) * 1024) / SOCKETS;
    console.log(
      `two web processes on Redis: ${SOCKETS} sockets (half on each) open in ${twoConnectS.toFixed(1)} s; ` +
        `${twoKbPerSocket.toFixed(1)} kB per socket; load ${load()}`,
    );
    listenForMessages(pairs);
    // The profile PUT goes to the process that does not hold the user's socket.
    const otherProcess = (user) => (byIndex.get(user.id) < half ? b.base : a.base);
    twoChat = await measure('two web processes (Redis), sender and receiver apart', pairs, pairUsers, () => a.base, otherProcess, db);
    closeAll();
    await releaseHolders();
    await Promise.all([stopWeb(a), stopWeb(b)]);
  }

  await db.end();
  console.log(
    '\nsummary (ms; load = 1-minute load average and the share of time runnable tasks waited for a CPU (not I/O wait) when the figure was taken)',
  );
  console.log(
    `  memory: one process ${kbPerSocket.toFixed(1)} kB per socket${twoKbPerSocket ? `, two processes ${twoKbPerSocket.toFixed(1)}` : ''}`,
  );
  for (const f of figures)
    console.log(
      `  ${f.label}; ${f.path}: p50 ${f.p50.toFixed(1)}, p99 ${f.p99.toFixed(1)}, response p50 ${f.response.toFixed(1)} ` +
        `(p99 ${f.responseP99.toFixed(1)}), p50 / response ${(f.p50 / f.response).toFixed(2)}x, load ${f.load}`,
    );
  if (twoChat)
    console.log(
      `  chat, two processes / one: p50 ${(twoChat.p50 / oneChat.p50).toFixed(2)}x, p99 ${(twoChat.p99 / oneChat.p99).toFixed(2)}x`,
    );
  const worst = Math.max(oneChat.p99, twoChat?.p99 ?? 0);
  console.log(`  chat p99 target 50 ms: ${worst <= 50 ? 'met' : 'missed'} (worst p99 ${worst.toFixed(1)} ms)`);
}

async function cleanUp() {
  for (const socket of sockets) socket.close();
  for (const child of holders) child.kill('SIGTERM');
  loopDelay.disable();
  for (const server of servers) {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(runDir, { recursive: true, force: true });
  if (redisPrefixes.length > 0) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL);
    for (const prefix of redisPrefixes) {
      for (let cursor = '0'; ;) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
        if (cursor === '0') break;
      }
    }
    redis.disconnect();
  }
}

if (args.includes('--holder')) holdInChild();
else
  main().then(cleanUp, async (error) => {
    console.error(error);
    await cleanUp();
    process.exitCode = 1;
  });
