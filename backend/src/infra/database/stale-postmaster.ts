import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { readdir, readFile, realpath, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

const FAST_SHUTDOWN_WAIT_MS = 15_000;
const IMMEDIATE_SHUTDOWN_WAIT_MS = 5_000;
const POLL_MS = 100;
const hasProc = existsSync('/proc/self/stat');

/**
 * Clears what a crashed run left in the embedded PostgreSQL's data folder, so that a start after
 * `kill -9` never needs a person. The lock file (postmaster.pid) may name:
 *  - the old postmaster, still running because only the web process was killed (its parent is
 *    gone): it is stopped with a fast shutdown (SIGINT), or an immediate one (SIGQUIT) if that
 *    takes over 15 s. One whose parent is still a running Node process belongs to another
 *    instance using the same DATA_DIR, and is left alone;
 *  - a process that is gone: PostgreSQL recovers by itself (it replaces the lock once it has
 *    checked that nothing still uses the old shared memory);
 *  - a dead process its parent has not reaped yet (a zombie, common in containers) or a number
 *    another program now uses: PostgreSQL would take either for a running postmaster and refuse
 *    to start, so once no process is left working in the folder the stale lock file is removed.
 */
export async function clearStalePostmaster(databaseDir: string, log: (line: string) => void): Promise<void> {
  const lockFile = join(databaseDir, 'postmaster.pid');
  const pid = await lockHolder(lockFile);
  if (pid === undefined) return;
  const dataDir = await realpath(databaseDir);

  const holder = await inspect(pid);
  if (holder.state === 'running' && holder.cwd === dataDir) {
    const parent = holder.parent === undefined ? undefined : await inspect(holder.parent);
    if (parent?.state === 'running' && /^node/.test(basename(parent.command))) {
      throw new Error(
        `The embedded PostgreSQL in ${databaseDir} belongs to a running process (pid ${holder.parent}): stop it, or give this one another DATA_DIR.`,
      );
    }
    log(`embedded PostgreSQL of an earlier run (pid ${pid}) still holds ${databaseDir}: stopping it`);
    const stopped = (await stop(pid, 'SIGINT', FAST_SHUTDOWN_WAIT_MS)) || (await stop(pid, 'SIGQUIT', IMMEDIATE_SHUTDOWN_WAIT_MS));
    if (!stopped) throw new Error(`The embedded PostgreSQL of an earlier run (pid ${pid}) did not stop; stop it, then start again.`);
  }
  // The old server's helper processes exit once they notice it is gone; none may still write here.
  if (!(await waitUntil(async () => (await processesIn(dataDir)).length === 0, FAST_SHUTDOWN_WAIT_MS))) {
    throw new Error(`Processes of an earlier embedded PostgreSQL still use ${databaseDir}: ${(await processesIn(dataDir)).join(', ')}`);
  }
  // Only when the holder is known to be dead (a zombie) or known to be another program: a process
  // whose folder cannot be read (another user's) might still be a server working here.
  const now = await inspect(pid);
  const stale = now.state === 'zombie' || (now.state === 'running' && now.cwd !== undefined && now.cwd !== dataDir);
  if ((await lockHolder(lockFile)) === pid && stale) {
    log(`removing the stale lock of embedded PostgreSQL pid ${pid} (${now.state === 'zombie' ? 'exited' : 'number reused'})`);
    await rm(lockFile, { force: true });
  }
}

async function lockHolder(lockFile: string): Promise<number | undefined> {
  const first = (await readFile(lockFile, 'utf8').catch(() => '')).split('\n')[0]?.trim() ?? '';
  return /^\d+$/.test(first) ? Number(first) : undefined;
}

interface ProcessInfo {
  /** Signal 0 succeeds for a zombie too, so the state comes from /proc or ps. */
  state: 'running' | 'zombie' | 'gone';
  parent?: number;
  /** Current directory (undefined when it cannot be read): a PostgreSQL process works in its data folder, which is how we recognise ours. */
  cwd?: string;
  command: string;
}

async function inspect(pid: number): Promise<ProcessInfo> {
  if (hasProc) {
    const stat = readOrEmpty(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
    // "pid (command) state ppid ...": the command may hold spaces and parentheses.
    const fields = /^\d+ \((.*)\) (\S) (\d+)/s.exec(stat);
    if (!fields) return { state: 'gone', command: '' };
    const state = fields[2] === 'Z' || fields[2] === 'X' ? 'zombie' : 'running';
    const command = readOrEmpty(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '') || (fields[1] ?? '');
    return { state, parent: Number(fields[3]), cwd: readOrEmpty(() => readlinkSync(`/proc/${pid}/cwd`)) || undefined, command };
  }
  const { stdout } = await promisify(execFile)('ps', ['-o', 'stat=,ppid=,command=', '-p', String(pid)]).catch(() => ({ stdout: '' }));
  const fields = /^\s*(\S+)\s+(\d+)\s+(.*)$/.exec(stdout.trim());
  if (!fields) return { state: 'gone', command: '' };
  const command = fields[3] ?? '';
  // Without /proc the data folder is read from the command line (-D <folder>).
  const cwd = /\s-D\s+(\S+)/.exec(command)?.[1];
  return {
    state: fields[1]?.startsWith('Z') ? 'zombie' : 'running',
    parent: Number(fields[2]),
    cwd: cwd && (await realpath(cwd).catch(() => cwd)),
    command,
  };
}

function readOrEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

/** Live processes working in the data folder (Linux only; elsewhere PostgreSQL's own shared-memory check remains). */
async function processesIn(dataDir: string): Promise<number[]> {
  if (!hasProc) return [];
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry)).map(Number);
  const infos = await Promise.all(pids.map(inspect));
  return pids.filter((_, i) => infos[i]?.state === 'running' && infos[i]?.cwd === dataDir);
}

async function stop(pid: number, signal: NodeJS.Signals, waitMs: number): Promise<boolean> {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
  return waitUntil(async () => (await inspect(pid)).state !== 'running', waitMs);
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}
