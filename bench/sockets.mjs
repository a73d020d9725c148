// Live-channel benchmark, run as a whole program against the built product (backend/dist):
//   node bench/sockets.mjs [--sockets=10000] [--samples=200] [--skip-redis]
// Creates a fresh database (on DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432) and
// writes N users with a session each straight into it (no sign-up round trips), then:
//  1. one web process (workers in process): opens N authenticated sockets (WebSocket, session cookie),
//     reads the process's memory per socket, and times `samples` events end to end: PUT /api/profile
//     -> user.profile-updated -> notifications subscriber (job) -> Realtime (event log + emit) -> the
//     user's socket receives PROFILE_UPDATED. Reports p50/p99, and the ratio to the PUT's own response time.
//  2. two web processes on Redis (REDIS_URL, default redis://127.0.0.1:6379): N/2 sockets on each;
//     each sample's PUT goes to one process and its socket is held by the other.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { io } from 'socket.io-client';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SOCKETS = Number(option('sockets', 10_000));
const SAMPLES = Number(option('samples', 200));
const SKIP_REDIS = args.includes('--skip-redis');
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const CONNECT_BATCH = 250;
const runDir = mkdtempSync(join(tmpdir(), 'fm-sockets-bench-'));
const dbName = `fm_sockets_bench_${randomBytes(4).toString('hex')}`;
const servers = [];
const redisPrefixes = [];
const sockets = [];

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const quantile = (xs, q) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs) => quantile(xs, 0.5);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

async function startWeb(env) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['backend/dist/main.js'], {
    env: { ...env, PORT: String(port), PUBLIC_URL: base },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  servers.push(child);
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
  return { base, pid: child.pid };
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

/**
 * Times `samples` profile changes, each by a different user: from sending the PUT to the user's
 * socket receiving PROFILE_UPDATED. `via(i)` is the base URL the i-th PUT goes to.
 */
async function timeEvents(users, samples, via) {
  const latencies = [];
  const responses = [];
  for (let i = 0; i < samples; i++) {
    const user = users[Math.floor((i * users.length) / samples)];
    const base = via(i, user);
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
  return { latencies, responses };
}

function report(label, { latencies, responses }) {
  const p50 = median(latencies);
  console.log(
    `${label}: PUT -> socket event p50 ${p50.toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms` +
      ` (${latencies.length} events); the PUT's own response p50 ${median(responses).toFixed(1)} ms; ratio event / response ${(p50 / median(responses)).toFixed(2)}x`,
  );
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
    REDIS_URL: '',
    HOST: '127.0.0.1',
    DATA_DIR: runDir,
    FRONTEND_DIR: 'none',
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT: '1000000',
    QUEUE_PREFIX: `fmbench_${randomBytes(3).toString('hex')}`,
  };
  const migrate = spawn(process.execPath, ['backend/dist/cli/migrate.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  if ((await new Promise((resolve) => migrate.once('exit', resolve))) !== 0) throw new Error('migrate failed');
  const db = new pg.Client({ connectionString: dbUrl.href });
  await db.connect();
  let t0 = performance.now();
  const users = await writeUsers(db, SOCKETS);
  console.log(`${SOCKETS} users with sessions written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // 1. One web process.
  const one = await startWeb({ ...env, WORKERS_IN_PROCESS: 'true' });
  const rssBefore = rssMbOf(one.pid);
  t0 = performance.now();
  await connectAll(one.base, users);
  const connectS = (performance.now() - t0) / 1000;
  await sleep(2_000);
  const rssAfter = rssMbOf(one.pid);
  console.log(
    `one web process: ${SOCKETS} sockets open in ${connectS.toFixed(1)} s (${(SOCKETS / connectS).toFixed(0)}/s); ` +
      `RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MB, ${(((rssAfter - rssBefore) * 1024) / SOCKETS).toFixed(1)} kB per socket`,
  );
  await timeEvents(users, 10, () => one.base); // warm-up
  report('one web process', await timeEvents(users, SAMPLES, () => one.base));
  for (const socket of sockets.splice(0)) socket.close();
  servers.shift().kill('SIGTERM');
  await sleep(1_000);

  if (SKIP_REDIS) return;
  // 2. Two web processes sharing rooms through Redis.
  const redisEnv = { ...env, REDIS_URL, WORKERS_IN_PROCESS: 'true', QUEUE_PREFIX: `fmbench_${randomBytes(3).toString('hex')}` };
  redisPrefixes.push(redisEnv.QUEUE_PREFIX);
  const [a, b] = [await startWeb(redisEnv), await startWeb(redisEnv)];
  const half = Math.floor(SOCKETS / 2);
  const [rssA, rssB] = [rssMbOf(a.pid), rssMbOf(b.pid)];
  t0 = performance.now();
  await Promise.all([connectAll(a.base, users.slice(0, half)), connectAll(b.base, users.slice(half))]);
  const twoConnectS = (performance.now() - t0) / 1000;
  await sleep(2_000);
  const perSocket = (((rssMbOf(a.pid) - rssA + rssMbOf(b.pid) - rssB) * 1024) / SOCKETS).toFixed(1);
  console.log(
    `two web processes on Redis: ${SOCKETS} sockets (half on each) open in ${twoConnectS.toFixed(1)} s; ${perSocket} kB per socket`,
  );
  // Each PUT goes to the process that does not hold the user's socket.
  const other = (_i, user) => (users.indexOf(user) < half ? b.base : a.base);
  await timeEvents(users, 10, other);
  report('two web processes, Redis adapter, socket on the other process', await timeEvents(users, SAMPLES, other));
  await db.end();
}

async function cleanUp() {
  for (const socket of sockets) socket.close();
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
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  }
}

main().then(cleanUp, async (error) => {
  console.error(error);
  await cleanUp();
  process.exitCode = 1;
});
