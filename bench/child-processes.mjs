// The child processes a bench starts (bench/cluster.mjs, bench/faults.mjs): each one's output kept in a log file of
// the run folder and its last 20 kB in memory, each tracked until it exits so the bench can stop all it started.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts processes whose output goes to `<runDir>/<label>.log`; `running` holds those not yet exited.
 * A process is `{ label, child, pid, output(), exited, ended, stopping }`; `exited` resolves with its exit code or
 * signal, or 'error' when it could not be started at all (no such command).
 */
export function processLauncher(runDir) {
  const running = new Set();
  function startProcess(label, command, args, { env, cwd } = {}) {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const file = createWriteStream(join(runDir, `${label}.log`), { flags: 'a' });
    let output = '';
    const keep = (chunk) => {
      if (!file.writableEnded) file.write(chunk);
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const proc = { label, child, pid: child.pid, output: () => output, stopping: false, ended: false };
    proc.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        proc.ended = true;
        running.delete(proc);
        resolve(code ?? signal);
      });
      child.once('error', (error) => {
        proc.ended = true;
        running.delete(proc);
        keep(`${command}: ${error.message}\n`);
        if (!file.writableEnded) file.end();
        resolve('error');
      });
    });
    child.once('close', () => {
      if (!file.writableEnded) file.end();
    });
    running.add(proc);
    return proc;
  }
  return { running, startProcess };
}

/** Sends `signal`, then SIGKILL after `graceMs`; resolves with the exit code or signal. */
export async function stopProcess(proc, signal = 'SIGTERM', graceMs = 25_000) {
  if (!proc || proc.ended) return proc?.exited;
  proc.stopping = true;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  const result = await proc.exited;
  clearTimeout(timer);
  return result;
}

/** Polls `check` every 100 ms until it is true; fails after `timeoutMs`, or at once when `proc` exits (with its output). */
export async function waitFor(what, check, timeoutMs, proc) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (proc?.ended) throw new Error(`${what}: ${proc.label} exited (${await proc.exited})\n${proc.output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${proc ? `\n${proc.output().slice(-3000)}` : ''}`);
    await sleep(100);
  }
}
