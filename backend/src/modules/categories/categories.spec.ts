import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { startTestApp } from '../../testing/test-app.js';

// The six categories are read once at boot; app.spec checks what /api/categories answers.
describe('categories served from memory', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('answers from the copy read at boot: a change to the table shows after a restart', async () => {
    const running = await startTestApp(db);
    try {
      await db.query(`update category set name = 'Arable Land' where id = 1`);
      const land = { id: 1, name: 'Land', slug: 'land' };
      const list = await running.app.inject({ method: 'GET', url: '/api/categories' });
      expect(list.json<{ data: unknown[] }>().data[0]).toEqual(land);
      const one = await running.app.inject({ method: 'GET', url: '/api/categories/1' });
      expect(one.json()).toEqual({ success: true, data: land });
    } finally {
      await running.close();
    }

    const restarted = await startTestApp(db);
    try {
      const response = await restarted.app.inject({ method: 'GET', url: '/api/categories/1' });
      expect(response.json()).toEqual({ success: true, data: { id: 1, name: 'Arable Land', slug: 'land' } });
    } finally {
      await restarted.close();
    }
  });
});
