// HTTP benchmark, run as a whole program against the built product and raw Fastify baselines:
//   node bench/http.mjs [rounds] [--seconds N] [--database] [--product label=dir ...] [--cpu-prof dir] [--port N]
// In one run it starts
//   - the product (`node backend/dist/main.js` of each --product checkout, default this one as
//     "product"), each on its own PORT, DATA_DIR and EMBEDDED_PG_PORT, with NODE_ENV=production,
//     the default LOG_LEVEL and stdout/stderr piped to this process (as to a log collector), and
//     without DATABASE_URL and REDIS_URL, so on the embedded defaults; with --database, against
//     DATABASE_URL (migrated at start);
//   - raw Fastify answering GET /hello (bench/raw-fastify.mjs hello);
//   - raw Fastify + `pg` answering GET /api/categories with the product's query and body, against
//     the database the last product uses (bench/raw-fastify.mjs categories);
// The products run with the /api rate limit lifted (a million a second): the bench's one client would
// otherwise be refused after 600 requests, and refusals are cheap answers that flatter the figures.
// Only the answers a scenario expects count (2xx; 404 for the unknown path); a run that saw any
// other answer or a socket error is reported and makes the bench exit non-zero, as does a product
// scenario below half of raw Fastify's hello.
// then warms each scenario up (3 s) and runs wrk (1 thread, 50 connections, keep-alive,
// Accept-Encoding as a browser sends it) for `rounds` rounds (default 3) of `seconds` (default 10)
// per scenario, the scenarios interleaved within each round so a change in machine load touches
// them alike. It prints medians over the rounds: requests/s, p50 and p99 latency, the server
// process's CPU time per request (utime + stime from /proc/<pid>/stat over the run, divided by
// the expected answers wrk counted), and each product scenario's ratio to its baseline (requests/s, and
// CPU per request as baseline ÷ product, so 1.0 is as cheap as the baseline).
// --cpu-prof dir: the products run with node --cpu-prof, writing a profile per product into dir
// when they stop (read it with bench/cpu-profile-summary.mjs).
// --only text: run only the product scenarios whose name contains text (the baselines always run).
// --port N: the first of the 40 ports the bench listens on (default 3930): products from N, the raw
// baselines at N + 10 and N + 11, the products' embedded PostgreSQL from N + 20.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireWrk, wrk } from './wrk.mjs';

const args = process.argv.slice(2);
const WITH_VALUE = ['--seconds', '--product', '--cpu-prof', '--only', '--port'];
const option = (name) => {
  const values = [];
  for (let i = 0; i < args.length; i++) if (args[i] === name) values.push(args[i + 1]);
  return values;
};
const rounds = Number(args.find((arg, i) => /^\d+$/.test(arg) && !WITH_VALUE.includes(args[i - 1])) ?? 3);
const seconds = Number(option('--seconds')[0] ?? 10);
const useDatabaseUrl = args.includes('--database');
const cpuProfDir = option('--cpu-prof')[0];
const only = option('--only')[0];
const basePort = Number(option('--port')[0] ?? 3930);
const products = (option('--product').length > 0 ? option('--product') : ['product=.']).map((spec) => {
  const [label, dir] = spec.includes('=') ? spec.split(/=(.*)/s) : [spec, spec];
  return { label, dir: resolve(dir) };
});
const WARMUP_SECONDS = 3;
const BROWSER_HEADERS = ['Accept-Encoding: gzip, deflate, br', 'Accept: application/json'];

requireWrk('bench/http.mjs');
if (useDatabaseUrl && !process.env.DATABASE_URL) {
  console.error('--database needs DATABASE_URL');
  process.exit(1);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const scratch = mkdtempSync(join(tmpdir(), 'fm-bench-http-'));
// The embedded PostgreSQL runs as the postgres user when we are root: it must reach its folder.
chmodSync(scratch, 0o755);
/** Every process started, stopped at the end whatever happens. */
const servers = [];

/** A server process, its output drained (and the last lines kept for error messages). */
function startProcess(label, nodeArgs, options) {
  const child = spawn(process.execPath, nodeArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const keep = (chunk) => {
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const waitFor = async (url) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}:\n${tail.join('\n')}`);
      try {
        if ((await fetch(url)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { label, pid: child.pid, stop, waitFor };
}

async function startProduct({ label, dir }, index) {
  const port = basePort + index;
  const embeddedPort = basePort + 20 + index;
  const dataDir = join(scratch, `data-${index}`);
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    API_RATE_LIMIT: '1000000',
    API_RATE_WINDOW_SECONDS: '1',
  };
  for (const name of ['LOG_LEVEL', 'REDIS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'SMTP_URL', 'FRONTEND_DIR', 'PUBLIC_URL', 'TRUST_PROXY']) {
    delete env[name];
  }
  if (useDatabaseUrl) env.MIGRATE_ON_START = 'true';
  else {
    delete env.DATABASE_URL;
    env.EMBEDDED_PG_PORT = String(embeddedPort);
  }
  const profiling = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir, label)}`] : [];
  const server = startProcess(label, [...profiling, 'backend/dist/main.js'], { cwd: dir, env });
  servers.push(server);
  const origin = `http://127.0.0.1:${port}`;
  await server.waitFor(`${origin}/api/health`);
  const password = useDatabaseUrl ? undefined : readFileSync(join(dataDir, 'postgres.secret'), 'utf8').trim();
  const databaseUrl = useDatabaseUrl
    ? process.env.DATABASE_URL
    : `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${embeddedPort}/fieldmarket`;
  return { ...server, origin, databaseUrl };
}

async function startRaw(mode, port, env = {}) {
  const server = startProcess(`raw ${mode}`, ['bench/raw-fastify.mjs', mode, String(port)], {
    cwd: resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...env },
  });
  servers.push(server);
  const origin = `http://127.0.0.1:${port}`;
  await server.waitFor(mode === 'hello' ? `${origin}/hello` : `${origin}/api/categories`);
  return { ...server, origin };
}

/** Minimum ratio of a product scenario's expected answers per second to raw Fastify's hello. */
const GOAL_RATIO = 0.5;

try {
  const started = [];
  for (const [index, product] of products.entries()) started.push(await startProduct(product, index));
  const hello = await startRaw('hello', basePort + 10);
  const rawCategories = await startRaw('categories', basePort + 11, { DATABASE_URL: started.at(-1).databaseUrl });

  const scenarios = [
    { name: 'raw Fastify: GET /hello', server: hello, method: 'GET', path: '/hello' },
    { name: 'raw Fastify + pg: GET /api/categories', server: rawCategories, method: 'GET', path: '/api/categories' },
  ];
  const [helloScenario, pgScenario] = scenarios;
  for (const server of started) {
    scenarios.push(
      ...[
        { name: `${server.label}: OPTIONS /api/health`, server, method: 'OPTIONS', path: '/api/health', baselines: [helloScenario] },
        {
          name: `${server.label}: GET /api/categories`,
          server,
          method: 'GET',
          path: '/api/categories',
          baselines: [helloScenario, pgScenario],
        },
        {
          name: `${server.label}: GET unknown /api path`,
          server,
          method: 'GET',
          path: '/api/no-such-thing',
          expected: 404,
          baselines: [helloScenario],
        },
      ].filter((scenario) => !only || scenario.name.includes(only)),
    );
  }

  const run = (scenario, duration) =>
    wrk({
      pid: scenario.server.pid,
      method: scenario.method,
      url: `${scenario.server.origin}${scenario.path}`,
      seconds: duration,
      expected: scenario.expected,
      scratch,
      headers: BROWSER_HEADERS,
    });
  for (const scenario of scenarios) run(scenario, WARMUP_SECONDS);
  for (const scenario of scenarios) scenario.runs = [];
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      scenario.runs.push(run(scenario, seconds));
    }
  }

  const summary = (scenario) => ({
    rate: median(scenario.runs.map((r) => r.rate)),
    p50: median(scenario.runs.map((r) => r.p50)),
    p99: median(scenario.runs.map((r) => r.p99)),
    cpu: median(scenario.runs.map((r) => r.cpuPerRequest)),
  });
  const ms = (micros) => `${(micros / 1000).toFixed(2)} ms`;
  const missed = [];
  console.log(
    `wrk -t1 -c50 keep-alive, ${seconds} s per run, medians of ${rounds} rounds (${useDatabaseUrl ? 'DATABASE_URL' : 'embedded PostgreSQL'})`,
  );
  console.log(
    `${'scenario'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'CPU µs/req'.padStart(11)}  ratio`,
  );
  for (const scenario of scenarios) {
    const s = summary(scenario);
    const ratios = (scenario.baselines ?? []).map((baseline) => {
      const b = summary(baseline);
      const name = baseline === helloScenario ? 'raw hello' : 'raw Fastify + pg';
      return `${(s.rate / b.rate).toFixed(3)}× ${name} (CPU ${(b.cpu / s.cpu).toFixed(3)}×)`;
    });
    console.log(
      [
        scenario.name.padEnd(40),
        s.rate.toFixed(0).padStart(8),
        ms(s.p50).padStart(9),
        ms(s.p99).padStart(9),
        s.cpu.toFixed(1).padStart(11),
        ` ${ratios.join('; ') || 'baseline'}`,
      ].join(' '),
    );
    const failures = [...new Set(scenario.runs.flatMap((r) => r.failures))];
    if (failures.length > 0) {
      console.log(`  ! ${failures.join('; ')}`);
      missed.push(`${scenario.name}: ${failures.join('; ')}`);
    }
    if (scenario.baselines?.includes(helloScenario) && s.rate / summary(helloScenario).rate < GOAL_RATIO) {
      missed.push(`${scenario.name}: ${(s.rate / summary(helloScenario).rate).toFixed(3)}× raw hello, goal ≥ ${GOAL_RATIO}×`);
    }
  }
  console.log(`runs (req/s): ${scenarios.map((s) => `${s.name}: ${s.runs.map((r) => r.rate.toFixed(0)).join(', ')}`).join(' | ')}`);
  if (missed.length > 0) {
    console.log(`missed:\n  ${missed.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log(`every product scenario answered as expected at ≥ ${GOAL_RATIO}× raw hello`);
} finally {
  for (const server of servers.reverse()) await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
