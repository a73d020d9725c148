// Hostile-body benchmark, run as a whole program against the built product:
//   node bench/hostile-bodies.mjs [runs]
// Starts backend/dist/main.js (of the current folder) on its embedded defaults, then `runs` times
// (default 5) posts a JSON object of 100,000 keys (about 900 KB, under the 1 MB body limit) to
// /api/contact while 4 probers each send GET /api/health, wait for it, pause 10 ms and go again,
// until the answer comes. Reports, as medians:
//   - the time until the hostile body is answered, and with what status;
//   - the latency of the health probes fired meanwhile (the rest of the site waits this long);
//   - the latency of health probes with nothing else going on, measured in the same run.
//
// Measured 2026-11-22 on a shared 2-core machine (Node 24.21):
//   before (f2b26f2, Fastify's JSON parser): answered in 6,343 ms with 400 (after class-transformer and
//     validation), health probes meanwhile 6,333 ms (5 runs); with no load 1 ms.
//   after (bounded parser): refused in 62 ms with 413, health probes meanwhile 51 ms (7 runs; of the
//     refusal, JSON.parse takes about 40 ms and the bounded walk 15 ms); with no load 1 ms.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const PROBERS = 4;
const PAUSE_MS = 10;
const port = 3950;
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'fm-bench-hostile-'));
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  EMBEDDED_PG_PORT: '54950',
  DATA_DIR: dataDir,
  FRONTEND_DIR: 'none',
  LOG_LEVEL: 'error',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

if (await fetch(`${base}/api/health`).catch(() => undefined)) throw new Error(`port ${port} is in use: stop what runs there first`);
const child = spawn(process.execPath, ['backend/dist/main.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const exited = new Promise((resolve) => child.once('exit', resolve));
try {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}`);
    if ((await fetch(`${base}/api/health`).catch(() => undefined))?.ok) break;
    await sleep(50);
  }

  const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [i.toString(36), 1]));
  const body = JSON.stringify(keys);
  const post = () => timed(`${base}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  const idle = [];
  for (let i = 0; i < 20; i++) idle.push((await timed(`${base}/api/health`)).ms);

  await post(); // warm-up, not counted
  const refusals = [];
  const statuses = new Set();
  const probes = [];
  for (let run = 0; run < runs; run++) {
    let done = false;
    const hostile = post().finally(() => (done = true));
    const probers = Array.from({ length: PROBERS }, async () => {
      const latencies = [];
      while (!done) {
        await sleep(PAUSE_MS);
        if (!done) latencies.push((await timed(`${base}/api/health`)).ms);
      }
      return latencies;
    });
    const result = await hostile;
    refusals.push(result.ms);
    statuses.add(result.status);
    probes.push(...(await Promise.all(probers)).flat());
  }

  const row = (label, ms, note = '') => console.log(`  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms  ${note}`);
  console.log(`hostile bodies: a 100,000-key JSON object (${Math.round(body.length / 1024)} KB) posted to /api/contact, ${runs} runs`);
  row('median time until it is answered', median(refusals), `(status ${[...statuses].join(', ')})`);
  row(`median latency of health probes sent meanwhile (${PROBERS} in turn)`, median(probes) ?? NaN, `(${probes.length} probes)`);
  row('median latency of health probes with no load', median(idle));
} finally {
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
