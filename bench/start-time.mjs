// Start-time benchmark, run as a whole program against the built product:
//   node bench/start-time.mjs [runs] [--product label=dir ...]
// Measures, as medians over `runs` (default 5), the time from spawning the web process until
// GET /api/health answers 200:
//   - warm: embedded PostgreSQL already initialised and migrated (a second ./fieldmarket start);
//   - first start: a new data folder (initdb, migrations, queue schema);
//   - baseline: a bare Node HTTP server answering its first request, measured in the same run.
// --product: the build of another checkout (repeatable; default this one), each measured in turn
// within every run, so before and after see the same machine load.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const runs = Number(args.find((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--product') ?? 5);
const productSpecs = args.filter((_, i) => args[i - 1] === '--product');
const products = (productSpecs.length > 0 ? productSpecs : ['product=.']).map((spec) => {
  const [label, dir] = spec.split(/=(.*)/s);
  return { label, dir: resolve(dir), warm: [], first: [] };
});
const port = 3900;
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_PORT: '54900', LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
delete env.REDIS_URL;

async function timeUntilHealthy(nodeArgs, extraEnv, url, cwd = '.') {
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, { cwd, env: { ...env, ...extraEnv }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${nodeArgs.join(' ')} exited with ${child.exitCode}`);
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
for (const product of products) {
  product.warmDir = mkdtempSync(join(tmpdir(), 'fm-bench-'));
  await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: product.warmDir }, health, product.dir); // initialise once
}
for (let i = 0; i < runs; i++) {
  baseline.push(await timeUntilHealthy(bare, {}, `http://127.0.0.1:${port}/`));
  for (const product of products) {
    product.warm.push(await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: product.warmDir }, health, product.dir));
    const freshDir = mkdtempSync(join(tmpdir(), 'fm-bench-'));
    product.first.push(await timeUntilHealthy(['backend/dist/main.js'], { DATA_DIR: freshDir }, health, product.dir));
    rmSync(freshDir, { recursive: true, force: true });
  }
}
for (const product of products) rmSync(product.warmDir, { recursive: true, force: true });

const b = median(baseline);
const row = (name, values) =>
  `${name.padEnd(44)} ${median(values).toFixed(0).padStart(6)} ms   ${(median(values) / b).toFixed(1).padStart(6)} x baseline`;
console.log(`start time to a healthy /api/health, median of ${runs} runs`);
console.log(row('baseline: bare Node HTTP server', baseline));
for (const { label, warm, first } of products) {
  const prefix = products.length > 1 ? `${label}: ` : '';
  console.log(row(`${prefix}warm start (existing data folder)`, warm));
  console.log(row(`${prefix}first start (new data folder)`, first));
}
