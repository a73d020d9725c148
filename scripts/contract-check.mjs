// Fails when openapi.yaml or the frontend's generated API types differ from what the code produces,
// or when Redocly's lint (redocly.yaml: the recommended rules) reports any error or warning.
// Regenerate both with: npm run contract:generate
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'fm-contract-'));
const spec = join(dir, 'openapi.yaml');
const types = join(dir, 'api-types.ts');
execFileSync(process.execPath, ['backend/dist/cli/openapi.js', spec], { stdio: 'ignore' });
// The generator is the frontend's dependency; run it from there.
execFileSync('npm', ['exec', '--workspace', 'frontend', '--', 'openapi-typescript', spec, '-o', types], { stdio: 'ignore' });

const drift = [
  ['openapi.yaml', spec],
  ['frontend/src/lib/api-types.ts', types],
].filter(([committed, fresh]) => {
  try {
    return readFileSync(committed, 'utf8') !== readFileSync(fresh, 'utf8');
  } catch {
    return true;
  }
});
if (drift.length > 0) {
  console.error(`Out of date: ${drift.map(([f]) => f).join(', ')}. Run "npm run contract:generate" and commit the result.`);
  process.exit(1);
}

// Redocly exits 0 on warnings; its JSON totals count both.
const lint = (format) =>
  execFileSync('npm', ['exec', '--no', '--', 'redocly', 'lint', 'openapi.yaml', `--format=${format}`], {
    encoding: 'utf8',
    stdio: 'pipe',
    // Offline and quiet: no usage report, no check for a newer version.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
let totals;
try {
  totals = JSON.parse(lint('json')).totals;
} catch (error) {
  totals = JSON.parse(error.stdout).totals; // errors make it exit 1, with the same report
}
if (totals.errors + totals.warnings > 0) {
  try {
    console.error(lint('stylish'));
  } catch (error) {
    console.error(error.stdout);
  }
  console.error(`Redocly: ${totals.errors} errors, ${totals.warnings} warnings in openapi.yaml (rules: redocly.yaml).`);
  process.exit(1);
}
console.log('contract: openapi.yaml and frontend API types match the backend; Redocly finds no problem');
