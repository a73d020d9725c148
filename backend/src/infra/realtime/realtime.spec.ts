import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { AppModule } from '../../app.module.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';
import { deleteRedisKeys } from '../../testing/redis.js';
import { startTestApp, testConfig, type TestApp } from '../../testing/test-app.js';
import { useTestDatabase } from '../../testing/test-context.js';
import { REALTIME_BUS } from './realtime.module.js';
import { Realtime } from './realtime.js';
import type { RealtimeBus } from './realtime-bus.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A stand-in for the accounts module's: the handshake's `auth.userId` names the user (each socket a session of its own). */
const trustHandshake = {
  authenticate: (handshake: { auth: Record<string, unknown> }) =>
    Promise.resolve(typeof handshake.auth['userId'] === 'string' ? { userId: handshake.auth['userId'], sessionId: randomUUID() } : null),
};

async function listen(t: TestApp): Promise<string> {
  t.app.get(Realtime).authenticateWith(trustHandshake);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

function connect(url: string, options: { userId?: string; origin?: string } = {}): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: options.userId ? { userId: options.userId } : {},
    extraHeaders: options.origin ? { origin: options.origin } : {},
  });
  return new Promise((resolve, reject) => {
    socket.once('realtime:ready', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Collects every ping a socket receives. */
function pings(socket: ClientSocket): string[] {
  const received: string[] = [];
  socket.on('realtime:ping', ({ sentAt }) => received.push(sentAt));
  return received;
}

/** Resolves when `socket` receives a ping stamped `marker`. */
const receives = (socket: ClientSocket, marker: string) =>
  new Promise<void>((resolve) => {
    const listener = ({ sentAt }: { sentAt: string }) => {
      if (sentAt === marker) {
        socket.off('realtime:ping', listener);
        resolve();
      }
    };
    socket.on('realtime:ping', listener);
  });

describe('realtime', () => {
  const db = useTestDatabase();

  describe('the handshake', () => {
    let t: TestApp;
    let url: string;

    beforeAll(async () => {
      t = await startTestApp(db, { PUBLIC_URL: 'https://fieldmarket.example', CORS_ORIGINS: 'https://partner.example' });
      url = await listen(t);
    });
    afterAll(() => t.close());

    it('refuses a page from a foreign origin', async () => {
      await expect(connect(url, { origin: 'https://evil.example' })).rejects.toThrow();
    });

    it.each(['https://fieldmarket.example', 'https://partner.example'])('accepts our own and configured origins (%s)', async (origin) => {
      const socket = await connect(url, { origin });
      socket.close();
    });

    it('tells an anonymous socket it is anonymous, and a signed-in one that it is signed in', async () => {
      const anonymous: ClientSocket = io(url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
      const signedIn: ClientSocket = io(url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { userId: 'u1' },
      });
      const ready = (s: ClientSocket) => new Promise<{ signedIn: boolean }>((resolve) => s.once('realtime:ready', resolve));
      try {
        expect((await ready(anonymous)).signedIn).toBe(false);
        expect((await ready(signedIn)).signedIn).toBe(true);
      } finally {
        anonymous.close();
        signedIn.close();
      }
    });
  });

  const buses: Array<{ bus: string; env: Record<string, string> }> = [{ bus: 'PostgreSQL', env: {} }];
  if (process.env.REDIS_URL) buses.push({ bus: 'Redis', env: { REDIS_URL: process.env.REDIS_URL } });

  describe.each(buses)('events to a user over the $bus bus', ({ env }) => {
    let web: TestApp;
    let otherWeb: TestApp;
    let worker: INestApplicationContext;
    let url: string;
    let otherUrl: string;

    beforeAll(async () => {
      web = await startTestApp(db, { ...env, WORKERS_IN_PROCESS: 'false' });
      url = await listen(web);
      const shared = { ...env, QUEUE_PREFIX: web.config.queue.prefix, WORKERS_IN_PROCESS: 'false' };
      otherWeb = await startTestApp(db, shared);
      otherUrl = await listen(otherWeb);
      // The worker process: the same modules with no socket.io server of its own.
      worker = await NestFactory.createApplicationContext(AppModule.forRoot(await testConfig(db, shared), db.url, { kind: 'worker' }), {
        logger: false,
      });
      await worker.init();
    });
    afterAll(async () => {
      await worker.close();
      await otherWeb.close();
      await web.close();
      if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, web.config.queue.prefix);
    });

    it('uses the bus it was configured with', () => {
      expect(web.app.get<RealtimeBus>(REALTIME_BUS).kind).toBe(env.REDIS_URL ? 'redis' : 'postgres');
    });

    it.each([
      ['the web process that holds the socket', () => web.app.get(Realtime)],
      ['another web process', () => otherWeb.app.get(Realtime)],
      ['the worker process', () => worker.get(Realtime)],
    ])('reaches every socket of that user, and no one else, from %s', async (_from, realtime) => {
      // Events to a user are logged under the user's id, a uuid.
      const [user1, user2] = [randomUUID(), randomUUID()];
      const [u1, u1Elsewhere, u2] = await Promise.all([
        connect(url, { userId: user1 }),
        connect(otherUrl, { userId: user1 }),
        connect(url, { userId: user2 }),
      ]);
      const u2Pings = pings(u2);
      try {
        const forU1 = `for-u1-${Math.random()}`;
        const both = Promise.all([receives(u1, forU1), receives(u1Elsewhere, forU1)]);
        realtime().toUser(user1, 'realtime:ping', { sentAt: forU1 });
        await both;
        // Events arrive in order: once u2 has the next broadcast, it would have had u1's ping too.
        const everyone = `everyone-${Math.random()}`;
        const u2HasBroadcast = receives(u2, everyone);
        realtime().broadcast('realtime:ping', { sentAt: everyone });
        await u2HasBroadcast;
        expect(u2Pings).toEqual([everyone]);
      } finally {
        for (const socket of [u1, u1Elsewhere, u2]) socket.close();
      }
    });
  });
});

describe('Realtime before a socket.io server or emitter is attached', () => {
  it('reports that ended sessions keep their live connections, rather than silently doing nothing', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      new Realtime().disconnectSessions([randomUUID(), randomUUID()]);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('the live connections of 2 ended session(s) stay open'));
    } finally {
      error.mockRestore();
    }
  });
});
