import { readFile, writeFile } from 'node:fs/promises';
import { withEnvTable } from '../config/env-table.js';

/**
 * Writes the README's configuration table from the environment schema (config/env-schema.ts).
 * Usage: node backend/dist/cli/env-docs.js [README.md]   (npm run docs:env)
 */
const file = process.argv[2] ?? 'README.md';
const readme = await readFile(file, 'utf8');
const updated = withEnvTable(readme);
if (updated === readme) console.log(`${file}: the configuration table is up to date`);
else {
  await writeFile(file, updated);
  console.log(`${file}: configuration table written`);
}
