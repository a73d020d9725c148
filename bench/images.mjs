// Image pipeline benchmark, run as a whole program against the built product (backend/dist):
//   node bench/images.mjs [photos] [--size=4000x3000] [--detail=96]
// Creates a fresh database (on DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432), starts
// one web process (workers in process, PostgreSQL queue backend), signs a user up (confirming the
// address in the database), then uploads `photos` (default 10) phone-sized JPEGs one request each and
// records, per photo, the time from sending the upload to its row turning `ready`. It reports the
// median and p90 of that, and the web process's CPU per photo (from /proc, all threads). As a baseline,
// the same file is resized by raw sharp in this process to the same variants (320/640/1280, WebP and
// AVIF at the product's settings, each from the file), and the ratio product / baseline is printed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';

const args = process.argv.slice(2);
const PHOTOS = Number(args.find((a) => !a.startsWith('--')) ?? 10);
const [WIDTH, HEIGHT] = (args.find((a) => a.startsWith('--size='))?.slice(7) ?? '4000x3000').split('x').map(Number);
// Side of the noise tile the photo is scaled up from: more detail, a bigger JPEG (--detail=1000 gives about 5 MB).
const DETAIL = Number(args.find((a) => a.startsWith('--detail='))?.slice(9) ?? 96);
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const runDir = mkdtempSync(join(tmpdir(), 'fm-images-bench-'));
const dbName = `fm_images_bench_${randomBytes(4).toString('hex')}`;
let server;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The most resident memory a process has used (VmHWM), in MB. */
function peakMemoryMbOf(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** CPU seconds used so far by a process and all its threads (utime + stime). */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function freePort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** A photo-like JPEG: a noise tile scaled up (compresses like a real photo, unlike a flat colour). */
async function phonePhoto() {
  const tile = sharp(randomBytes(DETAIL * DETAIL * 3), { raw: { width: DETAIL, height: DETAIL, channels: 3 } });
  const png = await tile.resize(WIDTH, HEIGHT, { fit: 'fill', kernel: 'cubic' }).png({ compressionLevel: 0 }).toBuffer();
  return sharp(png).jpeg({ quality: 88 }).toBuffer();
}

function multipart(file) {
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="IMG.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The same variants with sharp alone, each decoded from the file: what the product's job does at the least. */
async function rawSharp(file) {
  for (const width of [320, 640, 1280]) {
    await sharp(file).autoOrient().resize({ width, withoutEnlargement: true }).webp({ quality: 80, effort: 0 }).toBuffer();
    await sharp(file).autoOrient().resize({ width, withoutEnlargement: true }).avif({ quality: 50, effort: 0 }).toBuffer();
  }
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = await phonePhoto();
  console.log(
    `photo: ${WIDTH}x${HEIGHT} JPEG, ${(file.length / 1e6).toFixed(2)} MB; ${PHOTOS} uploads; sharp concurrency ${sharp.concurrency()}`,
  );

  // Baseline first, in this process, after one warm-up.
  await rawSharp(file);
  const baseline = [];
  for (let i = 0; i < Math.min(PHOTOS, 5); i++) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await rawSharp(file);
    const used = process.cpuUsage(cpu);
    baseline.push({ wall: performance.now() - t0, cpu: (used.user + used.system) / 1e6 });
  }

  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: dbUrl.href,
    REDIS_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: runDir,
    FRONTEND_DIR: 'none',
    LOG_LEVEL: 'warn',
    IMAGE_UPLOADS_PER_HOUR: '100000',
    API_RATE_LIMIT: '100000',
  };
  const migrate = spawn(process.execPath, ['backend/dist/cli/migrate.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const migrated = await new Promise((resolve) => migrate.once('exit', resolve));
  if (migrated !== 0) throw new Error(`migrate exited with ${migrated}`);
  server = spawn(process.execPath, ['backend/dist/main.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the product did not become healthy');
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(100);
  }
  const headers = { origin: base, 'x-requested-with': 'bench', 'content-type': 'application/json' };
  const person = {
    name: 'Bench Farmer',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'correct horse battery staple 42',
  };
  const signup = await fetch(`${base}/api/auth/signup`, { method: 'POST', headers, body: JSON.stringify(person) });
  if (!signup.ok) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  const db = new pg.Client({ connectionString: dbUrl.href });
  await db.connect();
  await db.query('update app_user set email_verified_at = now() where email = $1', [person.email]);
  const signin = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  if (!signin.ok) throw new Error(`sign-in: ${signin.status} ${await signin.text()}`);
  const cookie = signin.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

  const cpuBefore = cpuSecondsOf(server.pid);
  const sentAt = new Map();
  const readyAfter = new Map();
  const uploadMs = [];
  const t0 = performance.now();
  for (let i = 0; i < PHOTOS; i++) {
    const { body, contentType } = multipart(file);
    const start = performance.now();
    const response = await fetch(`${base}/api/upload/multiple`, {
      method: 'POST',
      headers: { ...headers, cookie, 'content-type': contentType },
      body,
    });
    if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
    uploadMs.push(performance.now() - start);
    const { data } = await response.json();
    sentAt.set(data.images[0].id, start);
  }
  while (readyAfter.size < PHOTOS) {
    const { rows } = await db.query(`select id, status from image where status <> 'processing'`);
    for (const { id, status } of rows) {
      if (status !== 'ready') throw new Error(`image ${id} ${status}`);
      if (!readyAfter.has(id)) readyAfter.set(id, performance.now() - sentAt.get(id));
    }
    await sleep(20);
  }
  const totalS = (performance.now() - t0) / 1000;
  const cpuPerPhoto = (cpuSecondsOf(server.pid) - cpuBefore) / PHOTOS;
  const baseCpu = median(baseline.map((b) => b.cpu));
  const baseWall = median(baseline.map((b) => b.wall));
  const times = [...readyAfter.values()];
  console.log(`upload request (send + checks + store): median ${median(uploadMs).toFixed(0)} ms`);
  console.log(
    `upload -> ready: median ${median(times).toFixed(0)} ms, p90 ${p90(times).toFixed(0)} ms (uploads sent back to back, one request each)`,
  );
  console.log(`all ${PHOTOS} ready ${totalS.toFixed(1)} s after the first upload was sent`);
  console.log(`throughput: ${(PHOTOS / totalS).toFixed(2)} photos/s; web process CPU per photo ${cpuPerPhoto.toFixed(2)} s`);
  console.log(`web process peak memory (VmHWM, workers in process): ${peakMemoryMbOf(server.pid).toFixed(0)} MB`);
  console.log(`baseline raw sharp, same file, same variants: ${baseWall.toFixed(0)} ms wall, ${baseCpu.toFixed(2)} s CPU per photo`);
  console.log(`ratio product / raw sharp: CPU ${(cpuPerPhoto / baseCpu).toFixed(2)}x`);
  await db.end();
  await admin.end();
}

async function cleanUp() {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(runDir, { recursive: true, force: true });
}

main().then(cleanUp, async (error) => {
  console.error(error);
  await cleanUp();
  process.exitCode = 1;
});
