// Loaded into the product by bench/search-mix.mjs (node --import): every statement the product sends
// through `pg` (the ORM's and the prepared pool's alike) appended as a JSON line to FM_SQL_CAPTURE,
// so that a bare `pg` client can replay exactly what each search sent. Bench only: never in production.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const file = process.env.FM_SQL_CAPTURE;
if (file) {
  const backend = createRequire(resolve('backend/package.json'));
  // The product's own `pg` and the ORM's copy of it (its driver may bring another version).
  const copies = new Set([backend('pg'), createRequire(backend.resolve('@mikro-orm/postgresql'))('pg')]);
  for (const pg of copies) {
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function capture(config, values, callback) {
      const text = typeof config === 'string' ? config : config?.text;
      if (text) {
        const bound = Array.isArray(values) ? values : config?.values;
        appendFileSync(file, `${JSON.stringify({ text, values: bound ?? [], name: config?.name })}\n`);
      }
      return query.call(this, config, values, callback);
    };
  }
}
