import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built entry points, as ./fieldmarket runs them (the test command builds first). */
export const BUILT = {
  web: fileURLToPath(new URL('../../dist/main.js', import.meta.url)),
  worker: fileURLToPath(new URL('../../../workers/dist/main.js', import.meta.url)),
  migrate: fileURLToPath(new URL('../../dist/cli/migrate.js', import.meta.url)),
};

/** A port on loopback where nothing listens (now). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stdout and stderr so far, interleaved as it arrived. */
  output(): string;
  exited: Promise<number | null>;
}

/** Runs a built entry point with exactly `env` (plus PATH), collecting what it writes. */
export function spawnBuilt(entry: string, env: NodeJS.ProcessEnv, options: { detached?: boolean } = {}): RunningProcess {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH, ...env },
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, output: () => output, exited };
}

/** Resolves once `url` answers with `status`; fails when the process exits first or after `timeoutMs`. */
export async function waitUntilServing(
  running: RunningProcess,
  url: string,
  options: { method?: string; status?: number; timeoutMs?: number } = {},
) {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (running.child.exitCode !== null) throw new Error(`the process exited with ${running.child.exitCode}:\n${running.output()}`);
    if (Date.now() > deadline) {
      running.child.kill('SIGKILL');
      throw new Error(`no answer from ${url} within ${options.timeoutMs ?? 30_000} ms:\n${running.output()}`);
    }
    const status = await fetch(url, { method: options.method ?? 'GET', signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === (options.status ?? 200)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
