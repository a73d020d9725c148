import { Inject, Logger } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { isAllowedOrigin } from '../../common/csrf.js';
import { LIVE_CHANNEL } from '../../contracts/notifications.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '../../events/client-events.js';
import { Realtime, sessionRoom, userRoom } from './realtime.js';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * The one socket.io gateway, on the web port at /socket.io. It refuses handshakes from foreign
 * origins, asks who is connecting (the authenticator registered with Realtime), and puts each signed-in socket in
 * its user's room. Only services emit, through Realtime.
 */
// Heartbeat (SPEC §9): a ping every 25 s, a connection that misses one answer for 10 s is closed.
@WebSocketGateway({
  path: '/socket.io',
  serveClient: false,
  pingInterval: LIVE_CHANNEL.pingIntervalMs,
  pingTimeout: LIVE_CHANNEL.pingTimeoutMs,
})
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection {
  private readonly logger = new Logger('Realtime');

  @WebSocketServer()
  server!: RealtimeServer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Realtime) private readonly realtime: Realtime,
  ) {}

  afterInit(server: RealtimeServer): void {
    // Checked on the engine's handshake and on the WebSocket upgrade, before any socket exists.
    // A request without Origin is not a browser page, so it cannot be cross-site.
    server.engine.opts.allowRequest = (request, callback) => {
      const origin = request.headers.origin;
      const allowed = !origin || isAllowedOrigin(origin, this.config, request.headers.host);
      callback(allowed ? null : 'Origin not allowed', allowed);
    };
    server.use((socket, next) => {
      this.realtime.identify(socket.handshake).then(
        (identity) => {
          if (identity) {
            socket.data.userId = identity.userId;
            socket.data.sessionId = identity.sessionId;
          }
          next();
        },
        (error: unknown) => {
          this.logger.warn(`socket authentication failed: ${String(error)}`);
          next(new Error('Authentication failed'));
        },
      );
    });
    this.realtime.attach(server);
    this.realtime.countSocketsWith(() => server.engine.clientsCount);
  }

  async handleConnection(socket: RealtimeSocket): Promise<void> {
    const { userId, sessionId } = socket.data;
    if (userId && sessionId) await socket.join([userRoom(userId), sessionRoom(sessionId)]);
    socket.on('realtime:ping', (ack) => {
      if (typeof ack === 'function') ack({ receivedAt: new Date().toISOString() });
    });
    socket.emit('realtime:ready', { connectedAt: new Date().toISOString(), signedIn: userId !== undefined });
  }
}
