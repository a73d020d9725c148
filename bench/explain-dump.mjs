// Where a slow search's time goes, from bench/search-mix.mjs --dump (Mode A's searches, slowest first, each with the
// statements the product sent):
//   node bench/explain-dump.mjs <dump.json> --reuse DATABASE [--min-ms 20] [--path TEXT]
// Runs EXPLAIN (ANALYZE) of every statement of each search slower than --min-ms (default 20) on DATABASE (the one
// the dump was taken on), as the product ran it: a prepared statement (the dump names it) under a generic plan,
// any other planned for its values; with the app's session settings (no JIT, no parallel workers). Prints one line
// per search: each statement's kind with its execution + planning milliseconds, slowest search first.
// --path TEXT: the searches whose path holds TEXT, each statement's whole plan instead.
// The statements' own times are those of a warm cache and one client; the dump's are the product's, under the bench.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(resolve('backend/package.json'));
const pg = require('pg');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const [file] = args;
const database = option('--reuse', undefined);
if (!file || file.startsWith('--') || !database) {
  console.error('usage: node bench/explain-dump.mjs <dump.json> --reuse DATABASE [--min-ms 20] [--path TEXT]');
  process.exit(2);
}
const minMs = Number(option('--min-ms', 20));
const path = option('--path', undefined);

/** What a statement of a search is, from its SQL (search-sql.ts, words.ts, spelling.ts). */
function kindOf(sql) {
  if (/^with counted as materialized/.test(sql)) return 'count+gather';
  if (/count\(\*\)::int as total/.test(sql)) return 'count';
  if (/with probed as materialized/.test(sql)) return 'postings count';
  if (/^with q as \(select websearch_to_tsquery/.test(sql)) return 'words';
  if (/similarity\(/.test(sql)) return 'spelling';
  return 'page';
}

const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${database}`;
const client = new pg.Client({ connectionString: url.href });
await client.connect();
// As the product's connections run (orm-config.ts).
await client.query('set jit = off');
await client.query('set max_parallel_workers_per_gather = 0');
const searches = JSON.parse(readFileSync(file, 'utf8')).filter((entry) => (path ? entry.path.includes(path) : entry.ms > minMs));
for (const search of searches) {
  const parts = [];
  if (path) console.log(`${search.path}: ${search.ms.toFixed(1)} ms in the bench`);
  for (const statement of search.statements) {
    await client.query(`set plan_cache_mode = ${statement.name ? 'force_generic_plan' : 'auto'}`);
    const format = path ? '' : ', format json';
    const { rows } = await client.query({ text: `explain (analyze${format}) ${statement.text}`, values: statement.values });
    const kind = `${kindOf(statement.text)}${statement.name ? ' (prepared)' : ''}`;
    if (path) {
      console.log(`--- ${kind}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    } else {
      const [plan] = rows[0]['QUERY PLAN'];
      parts.push(`${kind} ${plan['Execution Time'].toFixed(0)}+${plan['Planning Time'].toFixed(0)}`);
    }
  }
  if (!path)
    console.log(`${search.ms.toFixed(0).padStart(5)} ms  ${parts.join(' | ').padEnd(72)} ${search.path.replace('/api/listings?', '')}`);
}
await client.end();
