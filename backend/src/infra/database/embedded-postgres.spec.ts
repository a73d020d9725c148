import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT, freePort, spawnBuilt, waitUntilServing, type RunningProcess } from '../../testing/processes.js';

describe('the web process on the embedded PostgreSQL, after a crash', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const running: RunningProcess[] = [];

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
  async function start(overrides: NodeJS.ProcessEnv = {}): Promise<RunningProcess> {
    const product = spawnBuilt(BUILT.web, { ...env, ...overrides }, { detached: true });
    running.push(product);
    await waitUntilServing(product, `http://127.0.0.1:${overrides.PORT ?? port}/api/health`, { timeoutMs: 120_000 });
    return product;
  }

  async function crash(product: RunningProcess, what: 'process' | 'group'): Promise<void> {
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
    const second = spawnBuilt(BUILT.web, { ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`belongs to a running process (pid ${first.child.pid})`);
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
