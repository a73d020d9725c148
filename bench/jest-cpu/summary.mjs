// Sums bench/jest-cpu's per-file figures: node bench/jest-cpu/summary.mjs <dir> [<baseline dir>] [--top N]
// Prints each file's CPU seconds (total, load, boot, tests), largest first, beside the baseline's when given (files
// matched by their path below the checkout, so two checkouts compare), and the sums over the files both ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30;
const [dir, baselineDir] = args.filter((_, i) => topAt < 0 || (i !== topAt && i !== topAt + 1));
if (!dir) {
  console.error('usage: node bench/jest-cpu/summary.mjs <dir> [<baseline dir>] [--top N]');
  process.exit(2);
}

/** The figures of a folder, by the test file's path from its `backend/` or `frontend/` folder on. */
function figures(folder) {
  const byFile = new Map();
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.json'))) {
    const entry = JSON.parse(readFileSync(join(folder, name), 'utf8'));
    byFile.set(entry.path.replace(/^.*?\/(backend|frontend)\//, '$1/'), entry.cpu);
  }
  return byFile;
}

const PHASES = ['total', 'load', 'boot', 'tests'];
const after = figures(dir);
const before = baselineDir ? figures(baselineDir) : undefined;
const shown = (cpu) => (cpu ? PHASES.map((p) => cpu[p].toFixed(1)).join(' / ') : '-');
const rows = [...after].filter(([file]) => !before || before.has(file)).sort((a, b) => b[1].total - a[1].total);
console.log(`CPU s per file: ${PHASES.join(' / ')}${before ? '   (baseline → this run)' : ''}`);
for (const [file, cpu] of rows.slice(0, top)) {
  console.log(`${file.padEnd(64)} ${before ? `${shown(before.get(file)).padEnd(26)} → ` : ''}${shown(cpu)}`);
}
const sum = (map) => PHASES.map((p) => rows.reduce((s, [file]) => s + map.get(file)[p], 0));
console.log(`\n${rows.length} files; sums ${PHASES.join(' / ')}:`);
if (before)
  console.log(
    `  baseline ${sum(before)
      .map((s) => s.toFixed(1))
      .join(' / ')}`,
  );
console.log(
  `  this run ${sum(after)
    .map((s) => s.toFixed(1))
    .join(' / ')}`,
);
