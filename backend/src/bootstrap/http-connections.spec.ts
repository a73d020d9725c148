import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '../config/env.js';
import { captureLogs } from '../testing/log-capture.js';
import { eventually, testConfig } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createLogger } from './logger.js';
import { createWebApp } from './web-app.js';

/** Opens a raw connection that sends `first`, then one more byte of `drip` every 200 ms, until the server closes it. */
function trickle(port: number, first: string, drip: string): Promise<{ received: string }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    if (first) socket.write(first);
    const timer = setInterval(() => socket.writable && socket.write(drip), 200);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received });
    });
  });
}

describe('slow clients', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Short limits so the test is quick; the defaults are checked below.
    const config = await testConfig(db, { LOG_LEVEL: 'debug' });
    app = await createWebApp({ ...config, http: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 1_000 } }, db.url);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  it.each([
    ['sends its headers a byte at a time', 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n', 'x'],
    [
      'sends its body a byte at a time',
      'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      ' ',
    ],
    ['opens a connection and sends nothing', '', ''],
  ])('closes the connection of a client that %s, with 408', async (_label, first, drip) => {
    const { received } = await trickle(port, first, drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive connection that stays idle', async () => {
    const { received } = await trickle(port, 'GET /api/categories HTTP/1.1\r\nHost: localhost\r\n\r\n', '');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it.each([
    ['goes away mid-request', true],
    ['is cut off for sending its body too slowly', false],
  ])('logs a client that %s in one debug line, with no stack trace', async (_label, hangUp) => {
    const logs = captureLogs(createLogger(loadConfig({ LOG_LEVEL: 'error' })));
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.resume(); // read what the server sends, so its closing the connection is seen
      const closed = new Promise((resolve) => socket.on('close', resolve));
      const request =
        'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":';
      await new Promise((resolve) => socket.write(request, resolve)); // on the wire
      if (hangUp) socket.destroy();
      await closed;
      await eventually(() =>
        expect(
          logs.lines.some((l) => l.text.includes('POST /api/contact') && l.text.includes('closed the connection before the answer')),
        ).toBe(true),
      );
      // A later request answered means the server has finished with the abandoned one.
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
      const about = logs.lines.filter((l) => l.text.includes('/api/contact'));
      expect(about.map((l) => l.level)).toEqual(['debug']);
      expect(about[0]?.text).not.toMatch(/\n\s+at /);
    } finally {
      logs.restore();
    }
  });

  it('applies 10 s for headers, REQUEST_TIMEOUT_SECONDS and KEEP_ALIVE_TIMEOUT_SECONDS to the server by default', async () => {
    const config = await testConfig(db, { REQUEST_TIMEOUT_SECONDS: '45', KEEP_ALIVE_TIMEOUT_SECONDS: '65' });
    const configured = await createWebApp(config, db.url);
    try {
      const server = configured.getHttpServer() as Server;
      expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([10_000, 45_000, 65_000]);
    } finally {
      await configured.close();
    }
  });
});
