import { Injectable, Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import type { ServerToClientEvents } from '../../events/client-events.js';
import type { RealtimeEventLog } from './event-log.js';

export type Handshake = Socket['handshake'];
export type ServerEvent = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEvent> = Parameters<ServerToClientEvents[E]>[0];

/** The part of socket.io's Server and of its Redis and PostgreSQL emitters that Realtime uses. */
export interface RealtimeTarget {
  to(room: string): { emit(event: string, payload: unknown): unknown };
  emit(event: string, payload: unknown): unknown;
  /** The sockets in these rooms, in every web process (the server and the Redis and PostgreSQL emitters have it). */
  in(rooms: string | string[]): RealtimeRooms;
}

/** What can be done with the sockets of some rooms. */
export interface RealtimeRooms {
  disconnectSockets(close?: boolean): unknown;
  /** Only where this process holds the socket.io server (the emitters cannot ask the web processes). */
  fetchSockets?(): Promise<unknown[]>;
}

const NOT_READY = 'no socket.io server or emitter attached yet';

/** The payload with its seq added (payloads are objects; anything else goes as it is). */
const withSeq = (payload: unknown, seq: number): unknown =>
  typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? { ...payload, seq } : payload;

/** The room every socket of one signed-in user joins. */
export const userRoom = (userId: string): string => `user:${userId}`;
/** The room of the sockets opened with one session. */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;

/** Who a socket belongs to: the user, and the session it was opened with (ending the session closes it). */
export interface SocketIdentity {
  userId: string;
  sessionId: string;
}

/**
 * Who is connecting: the accounts module registers one (reading the session cookie from the
 * handshake) through Realtime.authenticateWith. Until then every socket is anonymous.
 */
export interface RealtimeAuthenticator {
  authenticate(handshake: Handshake): Promise<SocketIdentity | null>;
}

const anonymous: RealtimeAuthenticator = { authenticate: () => Promise.resolve(null) };

/** Options of an event to a user. */
export interface ToUserOptions {
  /**
   * What the event is about (e.g. "notification:<id>"). A repeat with the same key (a retried job)
   * is sent again under the seq it was first given, so the browser drops it as a duplicate.
   */
  key?: string;
}

/**
 * Sends events to browsers. In the web process it emits through the socket.io server (whose
 * adapter reaches every web process); in the worker process through socket.io's Redis or
 * PostgreSQL emitter. Only services emit; payloads are typed by ServerToClientEvents.
 *
 * Events to a user are logged first (RealtimeEventLog) and sent with their `seq`, so a browser
 * that was away asks for what it missed and drops what it already has.
 */
@Injectable()
export class Realtime {
  private readonly logger = new Logger('Realtime');
  private target: RealtimeTarget | undefined;
  private authenticator: RealtimeAuthenticator = anonymous;
  private countLocalSockets: () => number = () => 0;

  constructor(private readonly log?: RealtimeEventLog) {}

  authenticateWith(authenticator: RealtimeAuthenticator): void {
    this.authenticator = authenticator;
  }

  /** The handshake's user, or null for an anonymous socket. */
  identify(handshake: Handshake): Promise<SocketIdentity | null> {
    return this.authenticator.authenticate(handshake);
  }

  /** How events travel between processes (diagnostics). */
  busKind: 'memory' | 'redis' | 'postgres' = 'memory';

  /**
   * How many sockets the user has open, in every web process; null where this process holds no
   * socket.io server (the worker) or the other processes did not answer.
   */
  async countUserSockets(userId: string): Promise<number | null> {
    const rooms = this.target?.in(userRoom(userId));
    if (!rooms?.fetchSockets) return null;
    try {
      return (await rooms.fetchSockets()).length;
    } catch {
      return null;
    }
  }

  /**
   * Closes the sockets opened with these sessions, in every web process (the adapter carries it):
   * a session that ends (signed out, signed out elsewhere, password changed, account suspended or
   * deleted, staff role changed) stops receiving its user's events at once. From a worker process
   * it goes through the bus's emitter (Redis or PostgreSQL). Before a server or emitter is attached
   * there is nothing to close them through: that is logged as an error rather than passed over,
   * since the sessions' sockets would stay open (the sessions themselves are already ended).
   */
  disconnectSessions(sessionIds: string[]): void {
    if (sessionIds.length === 0) return;
    if (!this.target) {
      this.logger.error(`the live connections of ${sessionIds.length} ended session(s) stay open: ${NOT_READY}`);
      return;
    }
    this.target.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
  }

  /** Called once, by the gateway (web process) or by the module (worker process). */
  attach(target: RealtimeTarget): void {
    this.target = target;
  }

  /** The gateway says how to count the sockets this process holds (for the metrics). */
  countSocketsWith(count: () => number): void {
    this.countLocalSockets = count;
  }

  /** Sockets connected to this process (0 in the worker process). */
  socketCount(): number {
    return this.countLocalSockets();
  }

  /**
   * Logs the event and sends it to every socket of the user, without waiting. Should logging
   * fail, the event is still sent (without a seq) and the failure is logged.
   */
  toUser<E extends ServerEvent>(userId: string, event: E, payload: ServerEventPayload<E>, options: ToUserOptions = {}): void {
    const target = this.requireTarget();
    if (!this.log) return void target.to(userRoom(userId)).emit(event, payload);
    this.log.append(userId, event, payload, options.key).then(
      (seq) => target.to(userRoom(userId)).emit(event, withSeq(payload, seq)),
      (error: unknown) => {
        this.logger.warn(`could not log a ${event} event for a user: ${String(error)}`);
        target.to(userRoom(userId)).emit(event, payload);
      },
    );
  }

  /**
   * Like toUser, but resolves once the event is logged and sent, and rejects when it could not be
   * logged: a job awaits it, so a failure is retried (and the key keeps a retry from doubling it).
   */
  async deliverToUser<E extends ServerEvent>(
    userId: string,
    event: E,
    payload: ServerEventPayload<E>,
    options: ToUserOptions = {},
  ): Promise<number | undefined> {
    const target = this.requireTarget();
    const seq = this.log ? await this.log.append(userId, event, payload, options.key) : undefined;
    target.to(userRoom(userId)).emit(event, seq === undefined ? payload : withSeq(payload, seq));
    return seq;
  }

  /** deliverToUser for many users at once: the events logged in one write, then sent. */
  async deliverToUsers<E extends ServerEvent>(
    deliveries: ReadonlyArray<{ userId: string; event: E; payload: ServerEventPayload<E>; key?: string }>,
  ): Promise<void> {
    const target = this.requireTarget();
    const seqs = this.log
      ? await this.log.appendMany(deliveries.map(({ userId, event, payload, key }) => ({ userId, type: event, payload, key })))
      : undefined;
    deliveries.forEach(({ userId, event, payload }, index) => {
      const seq = seqs?.[index];
      target.to(userRoom(userId)).emit(event, seq === undefined ? payload : withSeq(payload, seq));
    });
  }

  toRoom<E extends ServerEvent>(room: string, event: E, payload: ServerEventPayload<E>): void {
    this.requireTarget().to(room).emit(event, payload);
  }

  broadcast<E extends ServerEvent>(event: E, payload: ServerEventPayload<E>): void {
    this.requireTarget().emit(event, payload);
  }

  private requireTarget(): RealtimeTarget {
    if (!this.target) throw new Error(`Realtime is not ready: ${NOT_READY}`);
    return this.target;
  }
}
