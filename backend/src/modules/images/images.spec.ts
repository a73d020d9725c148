import { beforeAll, describe, expect, it } from '@jest/globals';
import { type EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '../../contracts/images.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import {
  gifBytes,
  hasGpsTag,
  jpegBytes,
  pngBytes,
  postImages,
  uploadPhotos,
  webpBytes,
  type UploadedImageBody,
} from '../../testing/images.js';
import { JobQueue } from '../../infra/queue/job-queue.service.js';
import { eventually, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { ImageHousekeepingSubscriber } from './image-housekeeping.subscriber.js';
import { ImagesService } from './images.service.js';

/** A JPEG cut off after its header: it passes the upload checks, and sharp cannot decode it. */
const truncatedJpeg = (jpeg: Buffer) => jpeg.subarray(0, Math.floor(jpeg.length / 3));

const uploaded = (response: { json: <T>() => T }) => response.json<{ data: { images: UploadedImageBody[]; urls: string[] } }>().data;

describe('images', () => {
  let images: ImagesService;

  const { db, t } = useTestApp({ IMAGE_UPLOADS_PER_HOUR: '1000' }, { waitForJobs: true });
  beforeAll(async () => {
    images = t.app.get(ImagesService);
  });

  const transaction = (work: (tx: EntityManager) => Promise<unknown>) => t.app.get(MikroORM).em.fork().transactional(work);
  const filesOnDisk = async (id: string) => {
    const dir = join(t.config.storage.uploadsDir, 'images', id);
    return existsSync(dir) ? (await readdir(dir)).sort() : [];
  };
  const originalOnDisk = (id: string) => existsSync(join(t.config.storage.uploadsDir, 'originals', id));
  const rowsOf = (ids: string[]) =>
    db.query<{ id: string; listing_id: string | null; position: number; status: string }>(
      'select id, listing_id, position, status from image where id = any($1) order by position',
      [ids],
    );

  describe('POST /api/upload/multiple', () => {
    let browser: Browser;
    beforeAll(async () => {
      ({ browser } = await signedInPerson(t));
    });

    it.each([
      ['JPEG', 'image/jpeg', () => jpegBytes(1600, 1200), [1280, 960]],
      ['PNG', 'image/png', () => pngBytes(500, 400), [500, 400]],
      ['WebP', 'image/webp', () => webpBytes(700, 350), [700, 350]],
    ])('accepts a %s and serves its variants with the right type and caching', async (_label, type, bytes, [wideW, wideH]) => {
      const response = await postImages(browser, [{ filename: 'x.bin', contentType: type, data: await bytes() }]);
      expect(response.statusCode).toBe(201);
      const body = uploaded(response);
      expect(body.urls).toEqual([]);
      expect(body.images).toEqual([expect.objectContaining({ status: 'processing', url: null, variants: [], position: 0 })]);
      const id = body.images[0]!.id;
      await waitForJobs(db);
      expect(await rowsOf([id])).toEqual([expect.objectContaining({ status: 'ready', listing_id: null })]);

      const files = await filesOnDisk(id);
      expect(files).toContain(`320.webp`);
      expect(files).toContain(`320.avif`);
      const widest = files.map((f) => Number(f.split('.')[0])).sort((a, b) => b - a)[0]!;
      for (const file of files) {
        const served = await browser.send('GET', `/media/images/${id}/${file}`);
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(file.endsWith('.webp') ? 'image/webp' : 'image/avif');
        expect(served.headers['cache-control']).toBe('public, max-age=3600, s-maxage=0, must-revalidate');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        const meta = await sharp(served.rawPayload).metadata();
        expect(meta.format).toBe(file.endsWith('.webp') ? 'webp' : 'heif');
        expect(meta.width).toBe(Number(file.split('.')[0]));
        if (Number(file.split('.')[0]) === widest) expect([meta.width, meta.height]).toEqual([wideW, wideH]);
      }
      expect(widest).toBeLessThanOrEqual(1280);
    });

    it('strips GPS and every other metadata from the published variants, and turns the photo upright', async () => {
      const original = await jpegBytes(1000, 600, { exifGps: true, orientation: 6 });
      const fixture = await sharp(original).metadata();
      expect([hasGpsTag(fixture.exif), fixture.orientation]).toEqual([true, 6]); // the fixture really carries GPS and a rotation
      const response = await postImages(browser, [{ filename: 'IMG_0001.jpg', contentType: 'image/jpeg', data: original }]);
      const id = uploaded(response).images[0]!.id;
      await waitForJobs(db);
      const files = await filesOnDisk(id);
      // Upright, the photo is 600 wide: 320 and 600 (never enlarged to 640), in WebP and AVIF.
      expect(files).toEqual(['320.avif', '320.webp', '600.avif', '600.webp']);
      for (const file of files) {
        const served = await browser.send('GET', `/media/images/${id}/${file}`);
        const meta = await sharp(served.rawPayload).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(served.rawPayload.includes(Buffer.from('FarmPhone'))).toBe(false);
        expect(meta.height! > meta.width!).toBe(true); // orientation 6: a landscape sensor image shown portrait
      }
    });

    it.each([
      ['a text file', Buffer.from('just some text, not a photo at all')],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')],
      ['a GIF', 'gif'],
      [
        'an HTML page with JPEG magic bytes',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('<html><script>x</script></html>')]),
      ],
    ])('refuses %s named photo.jpg and declared image/jpeg, storing nothing', async (_label, content) => {
      const data = content === 'gif' ? await gifBytes(50, 50) : (content as Buffer);
      const before = await db.query('select id from image');
      const response = await postImages(browser, [{ filename: 'photo.jpg', contentType: 'image/jpeg', data }]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, error: IMAGE_MESSAGES.wrongType });
      expect(await db.query('select id from image')).toHaveLength(before.length);
    });

    it('answers an upload promptly while large photos are being resized', async () => {
      const small = { filename: 'small.jpg', contentType: 'image/jpeg', data: await jpegBytes(640, 480) };
      const large = { filename: 'large.jpg', contentType: 'image/jpeg', data: await jpegBytes(4000, 3000) };
      const timedUpload = async () => {
        const started = performance.now();
        expect((await postImages(browser, [small])).statusCode).toBe(201);
        return performance.now() - started;
      };
      const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;

      // Idle: no photo is being resized (each upload's own small job is done before the next).
      const idle: number[] = [];
      for (let i = 0; i < 7; i++) {
        await waitForJobs(db);
        idle.push(await timedUpload());
      }
      await waitForJobs(db);

      // Busy: eight large photos being resized, while the same upload arrives again.
      const response = await postImages(
        browser,
        Array.from({ length: 8 }, () => large),
      );
      expect(response.statusCode).toBe(201);
      const largeIds = uploaded(response).images.map((image) => image.id);
      await eventually(async () =>
        expect((await t.app.get(JobQueue).counts()).find((c) => c.queue === 'images')?.active).toBeGreaterThan(0),
      );
      const busy: number[] = [];
      for (let i = 0; i < 7; i++) busy.push(await timedUpload());
      // The uploads were answered while the resizing went on.
      expect((await rowsOf(largeIds)).filter((row) => row.status === 'processing').length).toBeGreaterThan(0);
      // Without a bound on the threads resizing takes, each of the upload's file operations queued
      // behind it: five to nine times the idle time here. Bounded, within twice it (the rest is CPU).
      expect(median(busy)).toBeLessThan(4 * median(idle));
      await waitForJobs(db, 120_000);
    }, 180_000);

    it('refuses the whole upload when one of several files is not an image', async () => {
      const before = await db.query('select id from image');
      const response = await postImages(browser, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: await jpegBytes(400, 300) },
        { filename: 'b.jpg', contentType: 'image/jpeg', data: Buffer.from('nope') },
      ]);
      expect(response.statusCode).toBe(400);
      expect(await db.query('select id from image')).toHaveLength(before.length);
    });

    it('accepts a file of exactly 5 MB and refuses 5 MB + 1 byte', async () => {
      const jpeg = await jpegBytes(400, 300);
      // Bytes after the JPEG's end marker are ignored by decoders: the same image, padded to size.
      const padded = (size: number) => Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
      const atLimit = await postImages(browser, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: padded(IMAGE_LIMITS.maxFileBytes) },
      ]);
      expect(atLimit.statusCode).toBe(201);
      const over = await postImages(browser, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: padded(IMAGE_LIMITS.maxFileBytes + 1) },
      ]);
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ success: false, error: IMAGE_MESSAGES.tooLarge });
    });

    it('refuses 9 files with the spec message, storing nothing', async () => {
      const data = await jpegBytes(64, 64);
      const before = await db.query('select id from image');
      const response = await postImages(
        browser,
        Array.from({ length: 9 }, (_, i) => ({ filename: `${i}.jpg`, contentType: 'image/jpeg', data })),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, error: IMAGE_MESSAGES.tooMany });
      expect(await db.query('select id from image')).toHaveLength(before.length);
    });

    it('refuses a decompression bomb (a small file of more than 40 megapixels)', async () => {
      const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bomb.length).toBeLessThan(IMAGE_LIMITS.maxFileBytes);
      const response = await postImages(browser, [{ filename: 'field.png', contentType: 'image/png', data: bomb }]);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ success: false, error: IMAGE_MESSAGES.tooManyPixels });
    });

    it('marks an image sharp cannot decode as failed', async () => {
      const response = await postImages(browser, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: truncatedJpeg(await jpegBytes(800, 600)) },
      ]);
      expect(response.statusCode).toBe(201);
      const id = uploaded(response).images[0]!.id;
      await waitForJobs(db);
      expect(await rowsOf([id])).toEqual([expect.objectContaining({ status: 'failed' })]);
      expect(await filesOnDisk(id)).toEqual([]);
    });

    it('answers 401 signed out, 403 before the address is confirmed, 403 without X-Requested-With', async () => {
      const data = await jpegBytes(100, 100);
      const file = [{ filename: 'a.jpg', contentType: 'image/jpeg', data }];
      expect((await postImages(new Browser(t), file)).statusCode).toBe(401);

      const person = newPerson('Una Confirmed');
      const unconfirmed = new Browser(t);
      await unconfirmed.call('POST', '/api/auth/signup', { name: person.name, email: person.email, password: person.password });
      await unconfirmed.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect((await postImages(unconfirmed, file)).statusCode).toBe(403);

      const noHeader = await browser.send('POST', '/api/upload/multiple', 'x', {
        'x-requested-with': '',
        'content-type': 'multipart/form-data; boundary=x',
      });
      expect(noHeader.statusCode).toBe(403);
    });

    it('answers 415 to a JSON body, and every other route still answers 415 to multipart', async () => {
      expect((await browser.call('POST', '/api/upload/multiple', { images: [] })).statusCode).toBe(415);
      const form = '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane\r\n--x--\r\n';
      for (const url of ['/api/contact', '/api/auth/signin']) {
        const response = await browser.send('POST', url, form, { 'content-type': 'multipart/form-data; boundary=x' });
        expect(response.statusCode).toBe(415);
      }
    });
  });

  describe('GET /media/images', () => {
    let browser: Browser;
    let id: string;
    beforeAll(async () => {
      ({ browser } = await signedInPerson(t));
      [id] = (await uploadPhotos(browser, 1)) as [string];
    });

    it('never serves the original, by any URL', async () => {
      expect(originalOnDisk(id)).toBe(true);
      for (const url of [
        `/media/images/${id}/original`,
        `/media/images/${id}/1200.jpg`,
        `/media/images/../originals/${id}`,
        `/media/images/%2e%2e/originals%2f${id}`,
        `/media/images/${id}/..%2f..%2foriginals%2f${id}`,
        `/media/originals/${id}`,
        `/media/images/${id}/${id}`,
        `/originals/${id}`,
        `/api/../originals/${id}`,
        `/media/images/${id}/99999.webp`,
        `/media/images/not-a-uuid/320.webp`,
      ]) {
        const response = await browser.send('GET', url);
        expect([url, response.statusCode]).toEqual([url, 404]);
      }
    });
  });

  describe('ImagesService (the listings port)', () => {
    let owner: { browser: Browser; id: string };
    let other: { browser: Browser; id: string };
    beforeAll(async () => {
      owner = await signedInPerson(t, newPerson('Olive Owner'));
      other = await signedInPerson(t, newPerson('Otto Other'));
    });

    it('attaches in the given order, refuses another user’s image, and detaches and deletes images left out', async () => {
      const [a, b, c] = (await uploadPhotos(owner.browser, 3)) as [string, string, string];
      const [theirs] = (await uploadPhotos(other.browser, 1)) as [string];
      const listing = randomUUID();

      await expect(transaction((tx) => images.attach(tx, owner.id, listing, [a, theirs]))).rejects.toMatchObject({
        fields: { images: IMAGE_MESSAGES.notYours },
      });
      expect(await rowsOf([a, theirs])).toEqual(expect.arrayContaining([expect.objectContaining({ listing_id: null })]));
      await expect(transaction((tx) => images.attach(tx, owner.id, listing, [a, a]))).rejects.toMatchObject({
        fields: { images: IMAGE_MESSAGES.duplicate },
      });

      await transaction((tx) => images.attach(tx, owner.id, listing, [c, a, b]));
      let views = (await images.imagesOf([listing])).get(listing)!;
      expect(views.map((v) => v.id)).toEqual([c, a, b]);
      expect(views[0]).toMatchObject({ status: 'ready', url: `/media/images/${c}/640.webp`, width: 1200, height: 900 });
      expect(views[0]!.variants).toHaveLength(6);

      // Already on a listing: another listing cannot take it.
      await expect(transaction((tx) => images.attach(tx, owner.id, randomUUID(), [a]))).rejects.toMatchObject({
        fields: { images: IMAGE_MESSAGES.notYours },
      });

      await transaction((tx) => images.attach(tx, owner.id, listing, [b, c]));
      views = (await images.imagesOf([listing])).get(listing)!;
      expect(views.map((v) => v.id)).toEqual([b, c]);
      await waitForJobs(db);
      expect(await rowsOf([a])).toEqual([]);
      expect(await filesOnDisk(a)).toEqual([]);
      expect(originalOnDisk(a)).toBe(false);
      expect(await filesOnDisk(b)).toHaveLength(6);
    });

    it('refuses a failed image', async () => {
      const response = await postImages(owner.browser, [
        { filename: 'a.jpg', contentType: 'image/jpeg', data: truncatedJpeg(await jpegBytes(800, 600)) },
      ]);
      const id = uploaded(response).images[0]!.id;
      await waitForJobs(db);
      await expect(transaction((tx) => images.attach(tx, owner.id, randomUUID(), [id]))).rejects.toMatchObject({
        fields: { images: IMAGE_MESSAGES.notYours },
      });
    });

    it('deleteFor removes rows and files, and only once the transaction commits', async () => {
      const ids = await uploadPhotos(owner.browser, 2);
      const listing = randomUUID();
      await transaction((tx) => images.attach(tx, owner.id, listing, ids));

      await expect(
        transaction(async (tx) => {
          await images.deleteFor(listing, tx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await waitForJobs(db);
      expect(await rowsOf(ids)).toHaveLength(2);
      expect(await filesOnDisk(ids[0]!)).toHaveLength(6);

      await images.deleteFor(listing);
      await waitForJobs(db);
      expect(await rowsOf(ids)).toEqual([]);
      for (const id of ids) {
        expect(await filesOnDisk(id)).toEqual([]);
        expect(originalOnDisk(id)).toBe(false);
      }
      expect((await images.imagesOf([listing])).get(listing)).toBeUndefined();
    });

    it('purges images never attached after 24 hours, keeping attached and recent ones', async () => {
      const [stale, recent, attached] = (await uploadPhotos(owner.browser, 3)) as [string, string, string];
      await transaction((tx) => images.attach(tx, owner.id, randomUUID(), [attached]));
      await db.query(`update image set created_at = now() - interval '25 hours' where id = any($1)`, [[stale, attached]]);
      await t.app.get(ImageHousekeepingSubscriber).purgeUnattached();
      await waitForJobs(db);
      expect((await rowsOf([stale, recent, attached])).map((r) => r.id).sort()).toEqual([recent, attached].sort());
      expect(await filesOnDisk(stale)).toEqual([]);
      expect(originalOnDisk(stale)).toBe(false);
    });

    it('deletes a deleted user’s images and files', async () => {
      const leaving = await signedInPerson(t, newPerson('Lee Leaving'));
      const ids = await uploadPhotos(leaving.browser, 2);
      const deleted = await leaving.browser.call('DELETE', '/api/profile', { password: leaving.person.password });
      expect(deleted.statusCode).toBe(200);
      await waitForJobs(db);
      await eventually(async () => expect(await rowsOf(ids)).toEqual([]));
      for (const id of ids) expect(await filesOnDisk(id)).toEqual([]);
    });
  });
});

describe('images: per-user upload limit', () => {
  const { t } = useTestApp({ IMAGE_UPLOADS_PER_HOUR: '3' }, { waitForJobs: true });

  it('answers 429 with Retry-After past the hourly number of images, per user', async () => {
    const { browser } = await signedInPerson(t);
    const file = { filename: 'a.jpg', contentType: 'image/jpeg', data: await jpegBytes(64, 64) };
    expect((await postImages(browser, [file, file])).statusCode).toBe(201);
    const refused = await postImages(browser, [file, file]);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.json<{ error: string }>().error).toMatch(/^You have uploaded too many images/);

    const { browser: someoneElse } = await signedInPerson(t, newPerson('Sam Else'));
    expect((await postImages(someoneElse, [file])).statusCode).toBe(201);
  });
});
