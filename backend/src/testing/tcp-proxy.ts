import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, Redis), so a test can take the dependency
 * away from a running app and bring it back, as an outage would.
 */
export interface TcpProxy {
  port: number;
  /** Closes every relayed connection and stops accepting new ones (connections are refused). */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const relay = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  };
  let server: Server = createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut,
    restore: async () => {
      server = createServer(relay);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
