import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, freePort, spawnBuilt, type RunningProcess } from './testing/processes.js';
import { createTestDatabase, type TestDatabase } from './testing/test-database.js';
import { eventually } from './testing/test-app.js';

async function run(entry: string, env: Record<string, string>): Promise<RunningProcess> {
  return spawnBuilt(entry, {
    NODE_ENV: 'production',
    FRONTEND_DIR: 'none',
    LOG_LEVEL: 'log',
    DATA_DIR: await mkdtemp(join(tmpdir(), 'fm-startup-')),
    STARTUP_WAIT_SECONDS: '2',
    ...env,
  });
}

describe('starting with a service that is down', () => {
  let db: TestDatabase;
  let port: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    port = await freePort();
  });
  afterAll(() => db.drop());

  it.each([
    ['the web process', 'PostgreSQL', 'web', () => ({ DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${port}/fm` })],
    ['the web process', 'Redis', 'web', () => ({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${port}` })],
    ['the worker process', 'Redis', 'worker', () => ({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${port}` })],
    ['the migrate command', 'PostgreSQL', 'migrate', () => ({ DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${port}/fm` })],
  ] as const)('%s retries, then stops naming the variable when %s does not answer', async (_label, service, entry, env) => {
    const started = await run(BUILT[entry], env());
    expect(await started.exited).toBe(1);
    const variable = service === 'PostgreSQL' ? 'DATABASE_URL' : 'REDIS_URL';
    const output = started.output();
    expect(output).toContain(`is not reachable yet (connect ECONNREFUSED 127.0.0.1:${port}); retrying in 500 ms`);
    expect(output).toMatch(
      new RegExp(`Cannot reach ${service} at ${variable} \\([a-z]+://[^)]*127\\.0\\.0\\.1:${port}[^)]*\\): connect ECONNREFUSED`),
    );
    // It waits the whole STARTUP_WAIT_SECONDS (2 s: tries at 0, 0.5, 1.5 and 2 s); how many tries fit depends on the
    // machine's speed, at least three.
    const [, tries, seconds] = /Tried (\d+) times over (\d+) s/.exec(output) ?? [];
    expect(Number(tries)).toBeGreaterThanOrEqual(3);
    expect(Number(seconds)).toBeGreaterThanOrEqual(2);
    expect(output).not.toContain('s3cret'); // the password stays out of the log
    expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });
});

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

describe('shutting down while Redis is gone', () => {
  // Runs its own redis-server to kill; machines without one skip it (CI and developer machines have it).
  (hasRedisServer ? it : it.skip)('finishes within the grace period', async () => {
    const db = await createTestDatabase();
    const redisPort = await freePort();
    const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const webPort = await freePort();
    const web = await run(BUILT.web, { DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, PORT: String(webPort) });
    try {
      await eventually(() => expect(web.output()).toContain('Fieldmarket is running'), 30_000);
      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      // A message arrives while the queue backend is down: it is stored, and its hand-over is under way.
      const response = await fetch(`http://127.0.0.1:${webPort}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ann', email: 'ann@example.co.uk', subject: 'Outage', message: 'Sent while Redis is down' }),
      });
      expect(response.status).toBe(201);
      web.child.kill('SIGTERM');
      expect(await web.exited).toBe(0);
      expect(web.output()).not.toContain('shutdown took longer');
      // Nothing is lost: the message and its work wait in the database for the next start.
      expect(await db.query('select id from outbox_job where completed_at is null')).toHaveLength(2);
    } finally {
      web.child.kill('SIGKILL');
      redis.kill('SIGKILL');
      await db.drop();
    }
  });
});

describe('stopping while answering', () => {
  it('finishes a request being answered, and tells one arriving meanwhile to come back', async () => {
    const db = await createTestDatabase();
    const webPort = await freePort();
    const web = await run(BUILT.web, { DATABASE_URL: db.url, PORT: String(webPort) });
    try {
      await eventually(() => expect(web.output()).toContain('Fieldmarket is running'), 30_000);
      const body = JSON.stringify({ name: 'Ann', email: 'ann@example.co.uk', subject: 'Shutdown', message: 'Sent as the process stops' });
      // The headers first: the server's "100 Continue" says it has the request, then the body once it is stopping.
      const request = httpRequest({
        host: '127.0.0.1',
        port: webPort,
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on('error', reject);
      });
      await new Promise<void>((resolve) => request.once('continue', resolve));
      web.child.kill('SIGTERM');
      await eventually(() => expect(web.output()).toContain('finishing 1 request in flight'), 10_000);
      const late = await fetch(`http://127.0.0.1:${webPort}/api/health`);
      expect([late.status, late.headers.get('retry-after'), await late.json()]).toEqual([
        503,
        '5',
        { success: false, error: 'Fieldmarket is restarting. Please try again in a moment.' },
      ]);
      request.end(body);
      expect((await answered).status).toBe(201);
      expect(await web.exited).toBe(0);
      expect(await db.query(`select subject from contact_message`)).toEqual([{ subject: 'Shutdown' }]);
      expect(web.output()).not.toContain('destroyed');
    } finally {
      web.child.kill('SIGKILL');
      await db.drop();
    }
  });

  it('behind a load balancer, first fails its readiness probe while still serving (SHUTDOWN_NOTICE_SECONDS), then drains', async () => {
    const db = await createTestDatabase();
    const webPort = await freePort();
    const web = await run(BUILT.web, { DATABASE_URL: db.url, PORT: String(webPort), SHUTDOWN_NOTICE_SECONDS: '3' });
    const origin = `http://127.0.0.1:${webPort}`;
    try {
      await eventually(() => expect(web.output()).toContain('Fieldmarket is running'), 30_000);
      expect((await fetch(`${origin}/api/health/ready`)).status).toBe(200);
      web.child.kill('SIGTERM');
      await eventually(() => expect(web.output()).toContain('not ready: serving 3 s more'), 5_000);
      // The proxy's probe hears it is going...
      const probe = await fetch(`${origin}/api/health/ready`);
      expect([probe.status, probe.headers.get('retry-after')]).toEqual([503, '5']);
      // ...while a request the proxy sent a moment before is still answered, write and all.
      const body = JSON.stringify({ name: 'Ann', email: 'ann@example.co.uk', subject: 'Notice', message: 'Sent as the proxy moves away' });
      const posted = await fetch(`${origin}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(posted.status).toBe(201);
      expect((await fetch(`${origin}/api/health/live`)).status).toBe(200);
      expect(await web.exited).toBe(0);
      expect(await db.query(`select subject from contact_message`)).toEqual([{ subject: 'Notice' }]);
    } finally {
      web.child.kill('SIGKILL');
      await db.drop();
    }
  });
});
