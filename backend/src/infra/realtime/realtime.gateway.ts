import { Logger } from '@nestjs/common';
import { type OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;

/** The one socket.io gateway, on the web port at /socket.io. Only services emit through it. */
@WebSocketGateway({ path: '/socket.io', serveClient: false, pingInterval: 25_000, pingTimeout: 10_000 })
export class RealtimeGateway implements OnGatewayConnection {
  private readonly logger = new Logger('Realtime');

  @WebSocketServer()
  server!: RealtimeServer;

  handleConnection(socket: Socket<ClientToServerEvents, ServerToClientEvents>): void {
    this.logger.debug(`client connected ${socket.id}`);
    socket.emit('realtime:ready', { connectedAt: new Date().toISOString() });
  }
}
