import { describe, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { appEntities } from './app.module.js';
import { createOrmConfig } from './infra/database/orm-config.js';
import { createTestDatabase } from './testing/test-database.js';
import { useTestApp } from './testing/test-context.js';
import { startTestApp } from './testing/test-app.js';

describe('platform', () => {
  const { db, t } = useTestApp();

  describe('categories', () => {
    it('lists the six categories of the spec with their slugs and live listing counts', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: true,
        data: [
          { id: 1, name: 'Land', slug: 'land', listing_count: 0 },
          { id: 2, name: 'Equipment', slug: 'equipment', listing_count: 0 },
          { id: 3, name: 'Livestock', slug: 'livestock', listing_count: 0 },
          { id: 4, name: 'Seeds & Plants', slug: 'seeds-plants', listing_count: 0 },
          { id: 5, name: 'Services', slug: 'services', listing_count: 0 },
          { id: 6, name: 'Rentals', slug: 'rentals', listing_count: 0 },
        ],
      });
    });

    it('serves exactly the rows the database holds, which listings refer to', async () => {
      const rows = await db.query<{ id: number; name: string; slug: string }>('select id, name, slug from category order by id');
      const response = await t.app.inject({ method: 'GET', url: '/api/categories' });
      expect(
        response.json<{ data: Array<{ id: number; name: string; slug: string }> }>().data.map(({ id, name, slug }) => ({ id, name, slug })),
      ).toEqual(rows);
    });

    it('returns one category by id', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/categories/4' });
      expect(response.json()).toEqual({ success: true, data: { id: 4, name: 'Seeds & Plants', slug: 'seeds-plants', listing_count: 0 } });
    });

    it.each(['99', 'abc', '1.5', '-1', '99999999999999999999'])('answers 404 for unknown id %s', async (id) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/categories/${id}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, error: 'Category not found' });
    });
  });

  describe('health', () => {
    it('reports database, queue, storage, mail and background work as up', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ success: boolean; data: { checks: Array<{ name: string; status: string }> } }>();
      expect(body.success).toBe(true);
      expect(body.data.checks.map((c) => [c.name, c.status])).toEqual([
        ['database', 'up'],
        ['queue', 'up'],
        ['storage', 'up'],
        ['mail', 'up'],
        ['jobs', 'up'],
      ]);
    });

    it('answers a burst of polls from one probe of the dependencies', async () => {
      const responses = await Promise.all(Array.from({ length: 10 }, () => t.app.inject({ method: 'GET', url: '/api/health' })));
      const stamps = responses.map((r) => r.json<{ data: { checks: Array<{ timestamp: string }> } }>().data.checks[0]?.timestamp);
      expect(new Set(stamps).size).toBe(1);
    });

    it('answers the OPTIONS probe with 204 and the allowed methods', async () => {
      const response = await t.app.inject({ method: 'OPTIONS', url: '/api/health' });
      expect(response.statusCode).toBe(204);
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    });

    it('reports success false with a message naming the dependency that is down', async () => {
      // S3 pointed at a closed port: the storage check fails, the rest stay up.
      const broken = await startTestApp(db, {
        S3_BUCKET: 'images',
        S3_ENDPOINT: 'http://127.0.0.1:9',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      });
      try {
        const response = await broken.app.inject({ method: 'GET', url: '/api/health' });
        expect(response.statusCode).toBe(503);
        const body = response.json<{ success: boolean; error: string; details: { checks: Array<{ name: string; status: string }> } }>();
        expect(body.success).toBe(false);
        expect(body.error).toBe('Image storage is unavailable');
        expect(body.details.checks.find((c) => c.name === 'database')?.status).toBe('up');
      } finally {
        await broken.close();
      }
    });
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await t.app.inject({ method, url: '/api/no-such-thing' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, error: `No API endpoint at ${method} /api/no-such-thing` });
    }
  });

  it('tags every response with a request id, keeping a well-formed one from the client', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const fresh = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { 'x-request-id': '<script>' } });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  const socketAdapters: Array<{ adapter: string; env: Record<string, string> }> = [{ adapter: 'in-memory', env: {} }];
  if (process.env.REDIS_URL)
    socketAdapters.push({ adapter: 'Redis', env: { REDIS_URL: process.env.REDIS_URL, WORKERS_IN_PROCESS: 'true' } });

  it.each(socketAdapters)('accepts socket.io connections on the web port and greets them ($adapter adapter)', async ({ env }) => {
    const listening = await startTestApp(db, env);
    await listening.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = listening.app.getHttpServer().address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    try {
      const ready = await new Promise<{ connectedAt: string }>((resolve, reject) => {
        socket.on('realtime:ready', resolve);
        socket.on('connect_error', reject);
      });
      expect(socket.connected).toBe(true);
      expect(Date.parse(ready.connectedAt)).not.toBeNaN();
    } finally {
      socket.disconnect();
      await listening.close();
    }
  });
});

it('has migrations that match the entities exactly', async () => {
  // Without BullMQ's schema, so the comparison covers only the application's tables.
  const db = await createTestDatabase({ queueSchema: false });
  const orm = new MikroORM(createOrmConfig(db.url, appEntities()));
  try {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
  } finally {
    await orm.close(true);
    await db.drop();
  }
});
