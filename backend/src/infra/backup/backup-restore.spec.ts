import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile, cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { Browser, newPerson, signedInPerson, type Person } from '../../testing/accounts.js';
import { uploadPhotos } from '../../testing/images.js';
import { PLACES } from '../../testing/listings.js';
import { serverForClientTools } from '../../testing/local-postgres.js';
import { signIn, staffCommand } from '../../testing/staff.js';
import { startTestApp, waitForJobs, type TestApp } from '../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import type { BackupManifest } from './manifest.js';

const COMMANDS = {
  backup: fileURLToPath(new URL('../../../dist/cli/backup.js', import.meta.url)),
  restore: fileURLToPath(new URL('../../../dist/cli/restore.js', import.meta.url)),
};
const TWO_FACTOR_KEY = randomBytes(32).toString('base64');

/** Runs the real `./fieldmarket backup|restore <dir>` (its compiled script) on a database and data folder. */
async function command(
  name: keyof typeof COMMANDS,
  dir: string,
  env: { DATABASE_URL: string; DATA_DIR: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [COMMANDS[name], dir], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'error', TWO_FACTOR_KEY, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A code from the authenticator app for the next 30 s step (the current one was spent turning it on). */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

describe('./fieldmarket backup and restore', () => {
  /** Where this file's databases are: a server the machine's pg_dump can dump (serverForClientTools). */
  let server: Awaited<ReturnType<typeof serverForClientTools>>;
  let source: TestDatabase;
  let app: TestApp;
  let backupDir: string;
  let seller: { browser: Browser; person: Person };
  let buyer: { browser: Browser; person: Person };
  let staff: { person: Person; secret: string };
  let listingId: string;
  let photoIds: string[];
  /** What people saw before the backup, to compare with what they see after the restore. */
  const before: Record<string, unknown> = {};

  const views = async (t: TestApp, who: { seller: Browser; buyer: Browser; staff: Browser }) => ({
    listing: (await who.seller.call('GET', `/api/listings/${listingId}`)).json(),
    mine: (await who.seller.call('GET', '/api/listings/mine')).json(),
    search: (await new Browser(t).call('GET', '/api/listings?q=baler')).json(),
    conversations: (await who.buyer.call('GET', '/api/messages/conversations')).json(),
    notifications: (await who.seller.call('GET', '/api/notifications')).json(),
    inbox: (await who.staff.call('GET', '/api/staff/inbox')).json(),
  });

  const photoBytes = async (browser: Browser) =>
    Promise.all(
      photoIds.map(async (id) => {
        const served = await browser.send('GET', `/media/images/${id}/640.webp`);
        if (served.statusCode !== 200) throw new Error(`photo ${id}: ${served.statusCode}`);
        return served.rawPayload;
      }),
    );

  beforeAll(async () => {
    server = await serverForClientTools('backup-restore.spec');
    console.info(server.note);
    source = await createTestDatabase({ server: server.serverUrl });
    app = await startTestApp(source, { TWO_FACTOR_KEY, OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', SEARCH_CACHE_MS: '0' });
    seller = await signedInPerson(app, newPerson('Sam Seller'));
    buyer = await signedInPerson(app, newPerson('Bea Buyer'));

    // A member of staff with two-factor sign-in (the secret encrypted with TWO_FACTOR_KEY).
    const member = await signedInPerson(app, newPerson('Stella Staff'));
    expect((await staffCommand(source, 'grant', member.person.email)).code).toBe(0);
    const staffBrowser = await signIn(app, member.person);
    const setup = await staffBrowser.call('POST', '/api/profile/two-factor/setup');
    const { secret } = setup.json<{ data: { secret: string } }>().data;
    expect((await staffBrowser.call('POST', '/api/profile/two-factor/verify', { token: await generate({ secret }) })).statusCode).toBe(200);
    staff = { person: member.person, secret };

    photoIds = await uploadPhotos(seller.browser, 2);
    const posted = await seller.browser.call('POST', '/api/listings', {
      type: 'sale',
      category: 'equipment',
      title: 'Welger round baler, net wrap',
      description: 'Always shedded, net and twine, ready for the season. Buyer collects from the yard near Taunton.',
      price: 6500,
      price_unit: 'total',
      vat: 'plus-vat',
      location: 'Taunton',
      place_id: PLACES.taunton.id,
      attributes: { make: 'Welger', model: 'RP 220', year: 2009 },
      confirm_over_18: true,
      seller_type: 'private',
      images: photoIds,
    });
    expect(posted.statusCode).toBe(201);
    listingId = posted.json<{ data: { id: string } }>().data.id;

    const conversation = await buyer.browser.call('POST', '/api/messages/conversations', { listingId });
    const conversationId = conversation.json<{ data: { id: string } }>().data.id;
    const sent = await buyer.browser.call('POST', '/api/messages/send', {
      conversationId,
      content: 'Is the baler still available this week?',
    });
    expect(sent.statusCode).toBe(201);
    const contact = await new Browser(app).call('POST', '/api/contact', {
      name: 'Jane Farmer',
      email: 'jane@example.co.uk',
      subject: 'Tractor hire',
      message: 'Do you list tractors for hire in Devon?',
    });
    expect(contact.statusCode).toBeLessThan(300);
    await waitForJobs(source);

    Object.assign(before, await views(app, { seller: seller.browser, buyer: buyer.browser, staff: staffBrowser }));
    before.photos = await photoBytes(seller.browser);
    backupDir = join(await mkdtemp(join(tmpdir(), 'fieldmarket-backup-')), 'backup');
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await source?.drop();
    await server?.stop();
  });

  it('writes the database, the images and a manifest, never the two-factor key, and says to keep the key apart', async () => {
    const made = await command('backup', backupDir, { DATABASE_URL: source.url, DATA_DIR: app.config.dataDir });
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(made.stdout).toMatch(/Backup written to .* database .* MiB \(\d+ tables, \d+ rows, schema Migration\d+_\w+\), \d+ images/);
    expect(made.stdout).toContain('The two-factor key is not in this backup');
    expect((await readdir(backupDir)).sort()).toEqual(['database.dump', 'images', 'manifest.json']);

    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
    const [{ users, listings, messages }] = await source.query<{ users: string; listings: string; messages: string }>(
      `select (select count(*) from app_user) as users, (select count(*) from listing) as listings, (select count(*) from message) as messages`,
    );
    expect(manifest.database.tables).toMatchObject({
      'public.app_user': { rows: Number(users) },
      'public.listing': { rows: 1 },
      'public.message': { rows: Number(messages) },
    });
    expect(Number(listings)).toBe(1);
    // Each photo's original and variants (jpeg, webp, avif), with checksums.
    expect(manifest.images.files.filter((file) => photoIds.some((id) => file.key.includes(id))).length).toBeGreaterThanOrEqual(2 * 6);
    expect(manifest.images.files.every((file) => /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);

    // Not the key in any form, in any file.
    const key = Buffer.from(TWO_FACTOR_KEY, 'base64');
    const files = await readdir(backupDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile())) {
      const bytes = await readFile(join(file.parentPath, file.name));
      expect([bytes.includes(key), bytes.includes(Buffer.from(TWO_FACTOR_KEY))]).toEqual([false, false]);
    }
  }, 120_000);

  it('refuses a folder that is not empty', async () => {
    const again = await command('backup', backupDir, { DATABASE_URL: source.url, DATA_DIR: app.config.dataDir });
    expect(again).toMatchObject({ code: 1, stderr: `${backupDir} is not empty: give a new folder for each backup.\n` });
  });

  it('refuses to restore into a database that is not empty', async () => {
    const emptyData = await mkdtemp(join(tmpdir(), 'fieldmarket-restore-'));
    const refused = await command('restore', backupDir, { DATABASE_URL: source.url, DATA_DIR: emptyData });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^The target database is not empty \(\d+ tables, such as [\w.]+\): restore only into an empty database\./,
    );
  });

  it('refuses to restore into an image store that is not empty, and leaves the database untouched', async () => {
    const target = await createTestDatabase({ empty: true, server: server.serverUrl });
    try {
      const refused = await command('restore', backupDir, { DATABASE_URL: target.url, DATA_DIR: app.config.dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^The image store is not empty \(it holds .+, among others\): restore only into an empty folder \(UPLOADS_DIR/,
      );
      expect(await target.query(`select tablename from pg_tables where schemaname = 'public'`)).toEqual([]);
    } finally {
      await target.drop();
    }
  });

  it('refuses a backup whose schema is newer than the code, and a damaged one', async () => {
    const target = await createTestDatabase({ empty: true, server: server.serverUrl });
    const emptyData = await mkdtemp(join(tmpdir(), 'fieldmarket-restore-'));
    const copy = join(await mkdtemp(join(tmpdir(), 'fieldmarket-backup-')), 'copy');
    try {
      await cp(backupDir, copy, { recursive: true });
      const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as BackupManifest;
      const newest = manifest.schemaVersion;
      await writeFile(
        join(copy, 'manifest.json'),
        JSON.stringify({ ...manifest, schemaVersion: 'Migration20991231000000_from_the_future' }),
      );
      const newer = await command('restore', copy, { DATABASE_URL: target.url, DATA_DIR: emptyData });
      expect(newer).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(
          `This backup's database schema (Migration20991231000000_from_the_future) is newer than this version of Fieldmarket (its last migration is ${newest})`,
        ),
      });

      await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest));
      const photo = manifest.images.files[0];
      await writeFile(join(copy, 'images', ...photo.key.split('/')), 'not the photo');
      const damaged = await command('restore', copy, { DATABASE_URL: target.url, DATA_DIR: emptyData });
      expect(damaged).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('does not match its checksum in the manifest: the backup is damaged'),
      });
      expect(await target.query(`select tablename from pg_tables where schemaname = 'public'`)).toEqual([]);
    } finally {
      await target.drop();
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('restores into an empty database and store: people sign in (two-factor too), and see the same listings, photos, conversations, notifications and inbox', async () => {
    const target = await createTestDatabase({ empty: true, server: server.serverUrl });
    const restoredData = await mkdtemp(join(tmpdir(), 'fieldmarket-restore-'));
    let restoredApp: TestApp | undefined;
    try {
      const restored = await command('restore', backupDir, { DATABASE_URL: target.url, DATA_DIR: restoredData });
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toMatch(/Restored .* \d+ tables, \d+ rows and \d+ images, all matching the manifest\./);

      // The same rows in every table the source has.
      for (const table of ['app_user', 'listing', 'image', 'conversation', 'message', 'notification', 'contact_message', 'user_session']) {
        const count = async (db: TestDatabase) => (await db.query<{ n: string }>(`select count(*) as n from ${table}`))[0].n;
        expect([table, await count(target)]).toEqual([table, await count(source)]);
      }

      restoredApp = await startTestApp(target, {
        TWO_FACTOR_KEY,
        DATA_DIR: restoredData,
        OUTBOX_POLL_SECONDS: '300',
        API_RATE_LIMIT: '100000',
        SEARCH_CACHE_MS: '0',
      });
      const t = restoredApp;
      const sellerAgain = await signIn(t, seller.person);
      const buyerAgain = await signIn(t, buyer.person);
      const staffAgain = await signIn(t, staff.person);
      const second = await staffAgain.call('POST', '/api/auth/two-factor/verify-login', { token: await nextCode(staff.secret) });
      expect(second.statusCode).toBe(200);

      const after = await views(t, { seller: sellerAgain, buyer: buyerAgain, staff: staffAgain });
      // What they saw was real data, not the same error twice.
      expect(JSON.stringify(after.listing)).toContain('Welger round baler, net wrap');
      expect(JSON.stringify(after.search)).toContain(listingId);
      expect(JSON.stringify(after.conversations)).toContain('Is the baler still available this week?');
      expect(JSON.stringify(after.inbox)).toContain('Tractor hire');
      expect(JSON.stringify(after.notifications)).toContain('Bea Buyer');
      for (const [name, value] of Object.entries(after)) expect([name, value]).toEqual([name, before[name]]);
      expect(await photoBytes(sellerAgain)).toEqual(before.photos);
    } finally {
      await restoredApp?.close();
      await target.drop();
    }
  }, 180_000);
});
