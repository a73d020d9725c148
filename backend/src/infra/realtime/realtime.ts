import { Injectable } from '@nestjs/common';
import type { Socket } from 'socket.io';
import type { ServerToClientEvents } from '../../events/client-events.js';

export type Handshake = Socket['handshake'];
export type ServerEvent = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEvent> = Parameters<ServerToClientEvents[E]>[0];

/** The part of socket.io's Server and of its Redis and PostgreSQL emitters that Realtime uses. */
export interface RealtimeTarget {
  to(room: string): { emit(event: string, payload: unknown): unknown };
  emit(event: string, payload: unknown): unknown;
}

/** The room every socket of one signed-in user joins. */
export const userRoom = (userId: string): string => `user:${userId}`;

/**
 * Who is connecting: the accounts module registers one (reading the session cookie from the
 * handshake) through Realtime.authenticateWith. Until then every socket is anonymous.
 */
export interface RealtimeAuthenticator {
  authenticate(handshake: Handshake): Promise<{ userId: string } | null>;
}

const anonymous: RealtimeAuthenticator = { authenticate: () => Promise.resolve(null) };

/**
 * Sends events to browsers. In the web process it emits through the socket.io server (whose
 * adapter reaches every web process); in the worker process through socket.io's Redis or
 * PostgreSQL emitter. Only services emit; payloads are typed by ServerToClientEvents.
 */
@Injectable()
export class Realtime {
  private target: RealtimeTarget | undefined;
  private authenticator: RealtimeAuthenticator = anonymous;
  private countSockets: () => number = () => 0;

  authenticateWith(authenticator: RealtimeAuthenticator): void {
    this.authenticator = authenticator;
  }

  /** The handshake's user, or null for an anonymous socket. */
  identify(handshake: Handshake): Promise<{ userId: string } | null> {
    return this.authenticator.authenticate(handshake);
  }

  /** Called once, by the gateway (web process) or by the module (worker process). */
  attach(target: RealtimeTarget): void {
    this.target = target;
  }

  /** The gateway says how to count the sockets this process holds (for the metrics). */
  countSocketsWith(count: () => number): void {
    this.countSockets = count;
  }

  /** Sockets connected to this process (0 in the worker process). */
  socketCount(): number {
    return this.countSockets();
  }

  toUser<E extends ServerEvent>(userId: string, event: E, payload: ServerEventPayload<E>): void {
    this.toRoom(userRoom(userId), event, payload);
  }

  toRoom<E extends ServerEvent>(room: string, event: E, payload: ServerEventPayload<E>): void {
    this.requireTarget().to(room).emit(event, payload);
  }

  broadcast<E extends ServerEvent>(event: E, payload: ServerEventPayload<E>): void {
    this.requireTarget().emit(event, payload);
  }

  private requireTarget(): RealtimeTarget {
    if (!this.target) throw new Error('Realtime is not ready: no socket.io server or emitter attached yet');
    return this.target;
  }
}
