// Backup and restore of the listings bench's database, run as whole programs:
//   node bench/backup.mjs --reuse DATABASE [--runs N]
// DATABASE is one kept by `node bench/listings.mjs 1000000 --seed-only` on DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432). Each run times the built `./fieldmarket backup <dir>` (dump, row counts and
// checksums, manifest) against pg_dump -Fc of the same database alone, and `./fieldmarket restore <dir>` into a new
// empty database (restore, checks against the manifest, analyze) against pg_restore of the same dump alone
// (pre-data and data in one transaction, then post-data, as the command does but without its psql step: the
// listing location index fails there, so the baseline has one index fewer to build). Prints medians over the runs,
// the ratios to the baselines, and the sizes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(resolve('backend/package.json'));
const pg = require('pg');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const source = option('--reuse', undefined);
const runs = Number(option('--runs', 3));
if (!source) {
  console.error('usage: node bench/backup.mjs --reuse DATABASE [--runs N]  (DATABASE from bench/listings.mjs --seed-only)');
  process.exit(2);
}
const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const urlOf = (name) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const admin = urlOf('postgres');
const scratch = mkdtempSync(join(tmpdir(), 'fm-bench-backup-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const sql = async (target, text) => {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

/** Runs a program to its end; its wall time in seconds, or throws with its output. */
function timed(command, commandArgs, env = {}, { allowFailure = false } = {}) {
  const started = performance.now();
  const run = spawnSync(command, commandArgs, { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0 && !allowFailure)
    throw new Error(`${command} ${commandArgs.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  return { seconds, stdout: run.stdout, stderr: run.stderr, status: run.status };
}

const du = (path) => Number(spawnSync('du', ['-sb', path], { encoding: 'utf8' }).stdout.split('\t')[0]);
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const productEnv = (database) => ({
  DATABASE_URL: urlOf(database),
  DATA_DIR: join(scratch, 'data'),
  NODE_ENV: 'production',
  LOG_LEVEL: 'error',
});

async function main() {
  const [{ listings, size }] = await sql(
    urlOf(source),
    `select (select count(*) from listing)::int as listings, pg_database_size(current_database())::bigint as size`,
  );
  console.log(`database ${source}: ${listings.toLocaleString('en-GB')} listings, ${mib(Number(size))} on disk`);
  const pgDump = spawnSync('sh', ['-c', 'command -v pg_dump'], { encoding: 'utf8' }).stdout.trim();
  const pgRestore = spawnSync('sh', ['-c', 'command -v pg_restore'], { encoding: 'utf8' }).stdout.trim();
  const times = { backup: [], dump: [], restore: [], pgRestore: [] };
  let backupBytes = 0;
  let dumpBytes = 0;
  for (let run = 1; run <= runs; run++) {
    const dir = join(scratch, `backup-${run}`);
    const made = timed(process.execPath, ['backend/dist/cli/backup.js', dir], productEnv(source));
    times.backup.push(made.seconds);
    backupBytes = du(dir);
    const dumpFile = join(scratch, `plain-${run}.dump`);
    times.dump.push(timed(pgDump, ['--format=custom', `--file=${dumpFile}`, `--dbname=${urlOf(source)}`]).seconds);
    dumpBytes = statSync(dumpFile).size;

    const target = `fm_bench_restore_${process.pid}_${run}`;
    await sql(admin, `create database ${target}`);
    try {
      times.restore.push(timed(process.execPath, ['backend/dist/cli/restore.js', dir], productEnv(target)).seconds);
    } finally {
      await sql(admin, `drop database if exists ${target} with (force)`);
    }
    const baseline = `fm_bench_pgrestore_${process.pid}_${run}`;
    await sql(admin, `create database ${baseline}`);
    try {
      const common = ['--no-owner', '--no-privileges', `--dbname=${urlOf(baseline)}`];
      const data = timed(pgRestore, [...common, '--single-transaction', '--section=pre-data', '--section=data', dumpFile]);
      const post = timed(pgRestore, [...common, '--section=post-data', dumpFile], {}, { allowFailure: true });
      times.pgRestore.push(data.seconds + post.seconds);
    } finally {
      await sql(admin, `drop database if exists ${baseline} with (force)`);
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(dumpFile, { force: true });
    console.log(
      `run ${run}: backup ${made.seconds.toFixed(1)} s, pg_dump ${times.dump.at(-1).toFixed(1)} s, ` +
        `restore ${times.restore.at(-1).toFixed(1)} s, pg_restore ${times.pgRestore.at(-1).toFixed(1)} s`,
    );
  }
  console.table([
    {
      step: './fieldmarket backup',
      'median s': median(times.backup).toFixed(1),
      'ratio to baseline': (median(times.backup) / median(times.dump)).toFixed(2),
      size: mib(backupBytes),
    },
    { step: 'baseline: pg_dump -Fc alone', 'median s': median(times.dump).toFixed(1), 'ratio to baseline': '1.00', size: mib(dumpBytes) },
    {
      step: './fieldmarket restore',
      'median s': median(times.restore).toFixed(1),
      'ratio to baseline': (median(times.restore) / median(times.pgRestore)).toFixed(2),
    },
    { step: 'baseline: pg_restore alone', 'median s': median(times.pgRestore).toFixed(1), 'ratio to baseline': '1.00' },
  ]);
  console.log(
    `runs: ${runs}; pg_dump ${pgDump}, pg_restore ${pgRestore}; load: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(scratch, { recursive: true, force: true }));
