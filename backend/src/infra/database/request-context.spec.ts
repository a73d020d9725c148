import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Controller, Get, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Category } from '../../modules/categories/category.entity.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { DatabaseModule } from './database.module.js';
import { ormEntities } from './entities.js';
import { provideRequestContexts } from './request-context.js';

let previousRequestsCategory: Category | undefined;

/** What a service sees through its injected EntityManager while serving a request. */
@Controller('probe')
class ProbeController {
  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  @Get()
  async probe() {
    const first = await this.em.findOneOrFail(Category, 1);
    const again = await this.em.findOneOrFail(Category, 1);
    const insideTransaction = await this.em.transactional((tx) => tx.findOneOrFail(Category, 1));
    const result = {
      sameEntityWithinTheRequest: first === again,
      transactionSeesTheRequestsEntities: insideTransaction === first,
      sharedWithThePreviousRequest: first === previousRequestsCategory,
    };
    previousRequestsCategory = first;
    return result;
  }
}

describe('the EntityManager of an HTTP request', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    db = await createTestDatabase({ queueSchema: false });
    @Module({ imports: [DatabaseModule.forRoot(db.url), ormEntities([Category])], controllers: [ProbeController] })
    class ProbeModule {}
    app = await NestFactory.create<NestFastifyApplication>(ProbeModule, new FastifyAdapter(), { logger: false });
    provideRequestContexts(app.getHttpAdapter().getInstance(), app.get(MikroORM));
    await app.init();
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  it('is one identity map per request, shared by its transactions and by no other request', async () => {
    const first = await app.inject({ method: 'GET', url: '/probe' });
    expect(first.json()).toEqual({
      sameEntityWithinTheRequest: true,
      transactionSeesTheRequestsEntities: true,
      sharedWithThePreviousRequest: false,
    });
    const second = await app.inject({ method: 'GET', url: '/probe' });
    expect(second.json()).toMatchObject({ sameEntityWithinTheRequest: true, sharedWithThePreviousRequest: false });
  });

  it('is refused outside a request, where no identity map would ever be cleared', async () => {
    const em = app.get(EntityManager);
    await expect(em.findOne(Category, 1)).rejects.toThrow(/global EntityManager/);
  });
});
