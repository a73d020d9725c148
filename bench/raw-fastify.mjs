// The baselines bench/http.mjs compares the product with: Fastify with nothing added.
//   node bench/raw-fastify.mjs hello <port>
//     GET /hello answers {"hello":"world"}
//   DATABASE_URL=... node bench/raw-fastify.mjs categories <port>
//     GET /api/categories answers the product's body, from the same query on a `pg` pool of the
//     size the product's ORM uses (10), with no ORM in between
import Fastify from 'fastify';
import pg from 'pg';

const [mode, port] = process.argv.slice(2);
const app = Fastify();

if (mode === 'hello') {
  app.get('/hello', async () => ({ hello: 'world' }));
} else if (mode === 'categories') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  app.get('/api/categories', async () => {
    const { rows } = await pool.query('select id, name, slug from category order by id asc');
    return { success: true, data: rows };
  });
  app.addHook('onClose', () => pool.end());
} else {
  console.error('usage: node bench/raw-fastify.mjs hello|categories <port>');
  process.exit(2);
}

for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => app.close().then(() => process.exit(0)));
await app.listen({ port: Number(port), host: '127.0.0.1' });
