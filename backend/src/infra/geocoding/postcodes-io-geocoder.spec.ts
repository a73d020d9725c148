import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import { appEntities } from '../../app.module.js';
import { POSTCODES, FakePostcodes } from '../../testing/postcodes.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { createOrmConfig } from '../database/orm-config.js';
import { GeonamesGeocoder } from './geocoder.js';
import { POSTCODE_SERVICE_DOWN, PostcodesIoGeocoder } from './postcodes-io-geocoder.js';
import { UkGeocoder } from './uk-geocoder.js';
import { PostcodeLookupPurgeJob } from './postcode-lookup-purge.job.js';

describe('postcode lookup through postcodes.io', () => {
  const service = new FakePostcodes();
  let db: TestDatabase;
  let orm: MikroORM;
  let postcodes: PostcodesIoGeocoder;

  beforeAll(async () => {
    await service.start();
    db = await createTestDatabase();
    orm = new MikroORM(createOrmConfig(db.url, appEntities()));
    // A timeout a local answer meets even on a loaded machine (300 ms did not, beside the browser tests), and a
    // slow service well past it.
    postcodes = new PostcodesIoGeocoder(orm.em, service.url, 1_500);
  });
  afterAll(async () => {
    await orm.close(true);
    await db.drop();
    await service.stop();
  });
  beforeEach(async () => {
    await db.query('delete from postcode_lookup');
    service.requests.length = 0;
    service.delayMs = 0;
    service.failing = false;
  });

  it('finds a full postcode as its place, with its outcode, however it is typed', async () => {
    expect(await postcodes.resolve('ex201ab')).toEqual({
      id: 'EX20 1AB',
      name: 'Okehampton',
      region: 'England',
      latitude: POSTCODES.okehampton.latitude,
      longitude: POSTCODES.okehampton.longitude,
      outcode: 'EX20',
    });
    expect(service.requests).toEqual(['/postcodes/EX20 1AB']);
  });

  it('finds an outcode by its district, and names an unparished postcode by its town', async () => {
    expect(await postcodes.byId('TA1')).toMatchObject({ id: 'TA1', name: 'Somerset', outcode: 'TA1' });
    expect(await postcodes.search('TA1 1AA')).toMatchObject([{ id: 'TA1 1AA', name: 'Taunton' }]);
  });

  it('asks the service once: a found postcode and an unknown one are both answered from PostgreSQL after', async () => {
    await postcodes.resolve('EX20 1AB');
    expect(await postcodes.resolve('ZZ9 9ZZ')).toBeUndefined();
    service.failing = true;
    expect(await postcodes.resolve('EX20 1AB')).toMatchObject({ name: 'Okehampton' });
    expect(await postcodes.resolve('zz99zz')).toBeUndefined();
    expect(service.requests).toEqual(['/postcodes/EX20 1AB', '/postcodes/ZZ9 9ZZ']);
  });

  it('keeps "no such postcode" only briefly, so a new postcode is found within the hour', async () => {
    expect(await postcodes.resolve('HX1 1AA')).toBeUndefined();
    await db.query(`update postcode_lookup set looked_up_at = now() - interval '61 minutes'`);
    service.add({ ...POSTCODES.hexham, postcode: 'HX1 1AA' });
    expect(await postcodes.resolve('HX1 1AA')).toMatchObject({ id: 'HX1 1AA', name: 'Hexham' });
  });

  it.each([
    ['down (answering 500)', () => (service.failing = true)],
    ['slower than the timeout', () => (service.delayMs = 4_000)],
  ])('says plainly that postcodes cannot be looked up when the service is %s, and caches nothing', async (_how, breakIt) => {
    breakIt();
    await expect(postcodes.resolve('EX20 1AB')).rejects.toThrow(POSTCODE_SERVICE_DOWN);
    expect(await db.query('select code from postcode_lookup')).toEqual([]);
  });

  it('says so too when nothing listens at the address', async () => {
    const nowhere = new PostcodesIoGeocoder(orm.em, 'http://127.0.0.1:9', 300);
    await expect(nowhere.resolve('EX20 1AB')).rejects.toThrow(POSTCODE_SERVICE_DOWN);
  });

  it('keeps place names working while the service is down: they never reach it', async () => {
    service.failing = true;
    const geocoder = new UkGeocoder(new GeonamesGeocoder(), postcodes);
    expect(await geocoder.resolve('Taunton, England')).toMatchObject({ id: '2636177', name: 'Taunton' });
    expect((await geocoder.search('Hexh', 5))[0]).toMatchObject({ name: 'Hexham' });
    await expect(geocoder.search('NE46 1AA', 5)).rejects.toThrow(POSTCODE_SERVICE_DOWN);
    expect(service.requests).toEqual(['/postcodes/NE46 1AA']);
  });

  it('forgets answers past the time they are read for (found: 30 days, unknown: an hour), and keeps the rest', async () => {
    const stored = (code: string, found: boolean, age: string) =>
      db.query(
        `insert into postcode_lookup (code, found, name, region, latitude, longitude, looked_up_at)
         values ($1, $2, 'Somewhere', 'England', 51, -3, now() - $3::interval)`,
        [code, found, age],
      );
    await stored('EX20 1AB', true, '31 days');
    await stored('TA1 1AA', true, '29 days');
    await stored('ZZ9 9ZZ', false, '61 minutes');
    await stored('ZZ8 8ZZ', false, '30 minutes');
    await new PostcodeLookupPurgeJob(orm.em).purge();
    const codes = await db.query<{ code: string }>('select code from postcode_lookup order by code');
    expect(codes.map((row) => row.code)).toEqual(['TA1 1AA', 'ZZ8 8ZZ']);
  });
});
