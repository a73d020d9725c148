import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import type { ArgumentsHost } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createWebApp } from '../bootstrap/web-app.js';
import { appEntities } from '../app.module.js';
import { createOrmConfig } from '../infra/database/orm-config.js';
import { Category } from '../modules/categories/category.entity.js';
import { startTcpProxy } from '../testing/tcp-proxy.js';
import { testConfig } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { TooManyRequestsException } from './errors.js';
import { HttpExceptionFilter } from './http-exception.filter.js';

const unavailable = { success: false, error: 'The service is temporarily unavailable. Please try again shortly.' };

describe('errors from the database and the queue', () => {
  let db: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    db = await createTestDatabase({ queueSchema: false });
    orm = new MikroORM(createOrmConfig(db.url, appEntities()));
  });
  afterAll(async () => {
    await orm.close(true);
    await db.drop();
  });

  it('answers 503 while the database is unreachable, and serves again once it is back', async () => {
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const throughProxy = new URL(db.url);
    throughProxy.port = String(proxy.port);
    const app = await createWebApp(await testConfig(db, { WORKERS_IN_PROCESS: 'false', REDIS_URL: undefined }), throughProxy.toString());
    try {
      const contact = (subject: string) =>
        app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: `10.3.0.${subject.length}`,
          payload: { name: 'Jane', email: 'jane@example.co.uk', subject, message: 'Is the hay still available?' },
        });
      expect((await contact('Before')).statusCode).toBe(201);
      await proxy.cut();
      // Both a pooled connection cut mid-life and a new connection refused.
      for (const subject of ['During one', 'During two']) {
        const refused = await contact(subject);
        expect([refused.statusCode, refused.json()]).toEqual([503, unavailable]);
      }
      await proxy.restore();
      expect((await contact('After')).statusCode).toBe(201);
    } finally {
      await app.close();
      await proxy.close();
    }
  });

  describe('the filter, given real exceptions', () => {
    let server: FastifyInstance;
    let next: () => Promise<unknown>;

    // A bare Fastify route hands what `next` throws to the filter, as Nest does for a real route.
    beforeAll(async () => {
      const filter = new HttpExceptionFilter(1024);
      server = Fastify();
      server.setErrorHandler((error, request, reply) => {
        filter.catch(error, { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost);
      });
      server.get('/probe', async () => next());
      await server.ready();
    });
    afterAll(() => server.close());

    const answerTo = async (run: () => Promise<unknown>) => {
      next = run;
      const response = await server.inject({ method: 'GET', url: '/probe' });
      return { status: response.statusCode, body: response.json<unknown>(), headers: response.headers };
    };

    it('answers findOneOrFail on a missing row with 404, naming the entity but not the query', async () => {
      const answer = await answerTo(() => orm.em.fork().findOneOrFail(Category, { id: 999 }));
      expect(answer).toMatchObject({ status: 404, body: { success: false, error: 'Category not found' } });
    });

    it('answers a unique-constraint violation with 409 naming the duplicated field', async () => {
      const answer = await answerTo(() => orm.em.fork().insert(Category, { id: 50, name: 'Again', slug: 'land' }));
      expect(answer).toMatchObject({ status: 409, body: { success: false, error: 'A category with this slug already exists.' } });
    });

    it('answers text with a NUL character that reached the database with 400', async () => {
      const answer = await answerTo(() => orm.em.fork().insert(Category, { id: 51, name: 'Nul\u0000name', slug: 'nul' }));
      expect(answer).toMatchObject({ status: 400, body: { success: false, error: 'Text must not contain NUL characters.' } });
    });

    it('answers 503 when the database cannot be reached', async () => {
      const closed = new URL(db.url);
      closed.port = '1';
      const unreachable = new MikroORM(createOrmConfig(closed.toString()));
      try {
        const answer = await answerTo(() => unreachable.em.fork().getConnection().execute('select 1'));
        expect(answer).toMatchObject({ status: 503, body: unavailable });
      } finally {
        await unreachable.close(true);
      }
    });

    it('answers 503, not 500, to a request still running when a stopping process has closed its database', async () => {
      const stopped = new MikroORM(createOrmConfig(db.url));
      // The request's query holds the driver it started with; the process closes the ORM under it.
      const driver = stopped.em.fork().getConnection().getClient();
      await driver.executeQuery(CompiledQuery.raw('select 1'));
      await stopped.close(true);
      const answer = await answerTo(() => driver.executeQuery(CompiledQuery.raw('select 1')));
      expect(answer).toMatchObject({ status: 503, body: unavailable });
    });

    it('answers 503 when Redis cannot be reached', async () => {
      const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
      redis.on('error', () => undefined);
      await redis.connect().catch(() => undefined);
      try {
        const answer = await answerTo(() => redis.get('anything'));
        expect(answer).toMatchObject({ status: 503, body: unavailable });
      } finally {
        redis.disconnect();
      }
    });

    it('sends Retry-After with a 429 that knows when to retry', async () => {
      const answer = await answerTo(() => Promise.reject(new TooManyRequestsException('Slow down.', 42)));
      expect(answer).toMatchObject({ status: 429, body: { success: false, error: 'Slow down.' } });
      expect(answer.headers['retry-after']).toBe('42');
    });

    it('still answers anything else with a generic 500', async () => {
      const answer = await answerTo(() => orm.em.fork().getConnection().execute('select * from no_such_table'));
      expect(answer).toMatchObject({ status: 500, body: { success: false, error: 'Something went wrong on our side. Please try again.' } });
    });
  });
});
