import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { withTimeout } from '../../common/timeout.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';
import { Outbox } from '../../infra/queue/outbox.service.js';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { staffCommand } from '../../testing/staff.js';
import { useTestApp } from '../../testing/test-context.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const PUBLIC_URL = 'https://fieldmarket.example';

describe('a session that ends closes the live connections it opened', () => {
  let url: string;
  const sockets: ClientSocket[] = [];

  afterAll(async () => {
    for (const socket of sockets) socket.close();
  });
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', PUBLIC_URL });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  async function connect(browser: Browser): Promise<ClientSocket> {
    const socket: ClientSocket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: browser.cookies, origin: PUBLIC_URL },
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('realtime:ready', ({ signedIn }) => (signedIn ? resolve() : reject(new Error('socket not signed in'))));
      socket.once('connect_error', reject);
    });
    return socket;
  }
  /** Why the server closed the socket; fails with `what` when it is still open after 5 s. */
  const closed = (socket: ClientSocket, what: string) =>
    withTimeout(new Promise<string>((resolve) => socket.once('disconnect', resolve)), 5_000, `${what} within 5 s`);

  /** The same person signed in on a second device (a session of its own). */
  async function secondDevice(person: Awaited<ReturnType<typeof signedInPerson>>): Promise<Browser> {
    const other = new Browser(t);
    const signIn = await other.call('POST', '/api/auth/signin', { email: person.person.email, password: person.person.password });
    expect(signIn.statusCode).toBe(200);
    return other;
  }

  it('signing out elsewhere closes the other devices’ sockets and keeps this one’s', async () => {
    const person = await signedInPerson(t);
    const laptop = await connect(person.browser);
    const phone = await connect(await secondDevice(person));
    const phoneClosed = closed(phone, 'the other device’s socket was not closed when its session ended');
    let laptopClosed = false;
    laptop.once('disconnect', () => (laptopClosed = true));

    expect((await person.browser.call('DELETE', '/api/auth/sessions/others')).statusCode).toBe(200);
    expect(await phoneClosed).toBe('io server disconnect');
    // The laptop's socket still answers on its session.
    await laptop.timeout(5_000).emitWithAck('realtime:ping');
    expect(laptopClosed).toBe(false);
  });

  it('signing out closes that session’s sockets', async () => {
    const person = await signedInPerson(t);
    const socket = await connect(person.browser);
    const socketClosed = closed(socket, 'the socket was not closed when its session signed out');
    expect((await person.browser.call('POST', '/api/auth/signout', {})).statusCode).toBe(200);
    expect(await socketClosed).toBe('io server disconnect');
  });

  it('the staff command granting or revoking the role closes the sockets of the sessions it ended', async () => {
    const person = await signedInPerson(t);
    const socket = await connect(person.browser);
    expect((await staffCommand(db, 'grant', person.person.email)).stdout).toContain('Signed out of 1 session');
    const socketClosed = closed(socket, 'the socket of a session the staff command ended was not closed');
    // The command is another process: the product closes them from its outbox (whose poll this test does not wait for).
    await t.app.get(Outbox).relay();
    expect(await socketClosed).toBe('io server disconnect');
  });
});
