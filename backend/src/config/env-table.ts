import { envTableRows } from './env-schema.js';

/**
 * The README's configuration table, generated from the schema (env-schema.ts) so its names,
 * defaults and meanings cannot drift from what the loader does. `npm run docs:env` writes it;
 * a test fails while the README's table differs.
 */
const HEADER = ['Variable', 'Default', 'Meaning'];

/** Markdown text of a cell: angle brackets as entities (so "<no-reply@…>" is not read as HTML), pipes escaped. */
const cell = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('|', '\\|');

/** The table as Prettier lays it out: every column padded to its widest cell. */
export function renderEnvTable(): string {
  const rows = envTableRows().map(([name, shownDefault, description]) => [`\`${name}\``, cell(shownDefault), cell(description)]);
  const widths = HEADER.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((text, column) => text.padEnd(widths[column])).join(' | ')} |`;
  return [line(HEADER), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** `readme` with its configuration table (the table whose first column is "Variable") replaced by the generated one. */
export function withEnvTable(readme: string): string {
  const lines = readme.split('\n');
  const start = lines.findIndex((text) => /^\|\s*Variable\s*\|\s*Default\s*\|/.test(text));
  if (start === -1) throw new Error('The README has no configuration table (a row starting "| Variable | Default |")');
  let end = start;
  while (end < lines.length && lines[end].startsWith('|')) end++;
  return [...lines.slice(0, start), renderEnvTable(), ...lines.slice(end)].join('\n');
}
