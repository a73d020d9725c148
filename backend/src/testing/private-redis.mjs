// Loaded by jest's globalSetup outside its transform.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';

/**
 * A redis-server of this run's own on a free loopback port, keeping nothing on disk, when one is
 * installed; otherwise undefined. Gives the Redis variants of the tests a server on machines
 * without REDIS_URL.
 */
export async function startPrivateRedis() {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (errors += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the private redis-server did not start on port ${port}: ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function answersPing(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    for (const event of ['error', 'timeout']) socket.once(event, () => (socket.destroy(), resolve(false)));
  });
}
