// Start-time benchmark, run as a whole program against the built product:
//   node bench/start-time.mjs [runs]
// Measures, as medians over `runs` (default 5), the time from spawning the web process until
// GET /api/health answers 200:
//   - warm: embedded PostgreSQL already initialised and migrated (a second ./fieldmarket start);
//   - first start: a new data folder (initdb, migrations, queue schema);
//   - baseline: a bare Node HTTP server answering its first request, measured in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const port = 3900;
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_PORT: '54900', LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
delete env.REDIS_URL;

async function timeUntilHealthy(args, extraEnv, url) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        if ((await fetch(url)).ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bare = ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`];
const health = `http://127.0.0.1:${port}/api/health`;

const baseline = [];
const warm = [];
const first = [];
const warmDir = mkdtempSync(join(tmpdir(), 'fm-bench-'));
await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: warmDir }, health); // initialise once
for (let i = 0; i < runs; i++) {
  baseline.push(await timeUntilHealthy(bare, {}, `http://127.0.0.1:${port}/`));
  warm.push(await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: warmDir }, health));
  const freshDir = mkdtempSync(join(tmpdir(), 'fm-bench-'));
  first.push(await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: freshDir }, health));
  rmSync(freshDir, { recursive: true, force: true });
}
rmSync(warmDir, { recursive: true, force: true });

const b = median(baseline);
const row = (name, values) =>
  `${name.padEnd(34)} ${median(values).toFixed(0).padStart(6)} ms   ${(median(values) / b).toFixed(1).padStart(6)} x baseline`;
console.log(`start time to a healthy /api/health, median of ${runs} runs`);
console.log(row('baseline: bare Node HTTP server', baseline));
console.log(row('warm start (existing data folder)', warm));
console.log(row('first start (new data folder)', first));
