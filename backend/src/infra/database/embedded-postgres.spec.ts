import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The product as `./fieldmarket start` runs it (the test command builds first). */
const entry = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Product {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('the web process on the embedded PostgreSQL, after a crash', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const running: Product[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fm-crash-'));
    port = await freePort();
    env = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      FRONTEND_DIR: 'none',
    };
  });
  afterAll(async () => {
    for (const product of running) if (product.child.exitCode === null) product.child.kill('SIGKILL');
    // Never leave a server behind, whatever happened above.
    const pid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts the product in a process group of its own; resolves once /api/health answers 200. */
  async function start(overrides: NodeJS.ProcessEnv = {}): Promise<Product> {
    const child = spawn(process.execPath, [entry], { env: { ...env, ...overrides }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const product = { child, output: () => output, exited };
    running.push(product);
    const url = `http://127.0.0.1:${overrides.PORT ?? port}/api/health`;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}:\n${output}`);
      const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return product;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function crash(product: Product, what: 'process' | 'group'): Promise<void> {
    process.kill(what === 'group' ? -(product.child.pid as number) : (product.child.pid as number), 'SIGKILL');
    await product.exited;
  }

  it('starts again after its process is killed with SIGKILL (the database server it started lives on)', async () => {
    await crash(await start(), 'process');
    await crash(await start(), 'process');
  });

  it('starts again after its whole process group is killed with SIGKILL, each time', async () => {
    for (let i = 0; i < 3; i++) await crash(await start(), 'group');
  });

  it('leaves the database of another running process on the same DATA_DIR alone, and says why', async () => {
    const first = await start();
    const second = spawn(process.execPath, [entry], { env: { ...env, PORT: String(await freePort()) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    second.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(`belongs to a running process (pid ${first.child.pid})`);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
