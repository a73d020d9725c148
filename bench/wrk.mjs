// wrk run from a bench: one thread, 50 connections, counting only the answers a scenario expects, with the
// server process's CPU time per counted answer (bench/http.mjs, bench/page-render.mjs).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
const MICROS = { us: 1, ms: 1e3, s: 1e6 };
const toMicros = (text) => {
  const [, value, unit] = /^([\d.]+)(us|ms|s)$/.exec(text) ?? [];
  return Number(value) * MICROS[unit];
};

/** Exits with a message when wrk is not installed. */
export function requireWrk(bench) {
  if (spawnSync('wrk', ['-v']).error) {
    console.error(`${bench} needs wrk, which is not installed. On Debian: apt-get install -y wrk`);
    process.exit(1);
  }
}

/** CPU time (user + system, every thread) the process has used so far, in µs. */
export function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5), counted from the state field (3).
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

/** wrk's script: the method, and a count (over every thread) of answers other than `expected`. */
function wrkScript(method, expected) {
  const unexpected = expected === '2xx' ? 'status < 200 or status > 299' : `status ~= ${expected}`;
  return `wrk.method = "${method}"
unexpected = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function response(status, headers, body) if ${unexpected} then unexpected = unexpected + 1 end end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("unexpected") end
  io.write(string.format("unexpected answers: %d\\n", total))
end
`;
}

/**
 * One wrk run against `url` while measuring the CPU time of the process `pid`; only `expected` answers
 * count (their rate, and CPU per answer). `scratch` is a folder for wrk's script; `headers` are sent
 * with every request.
 */
export function wrk({ pid, method = 'GET', url, seconds, expected = '2xx', scratch, headers = [] }) {
  const script = join(scratch, `${method}-${expected}.lua`);
  writeFileSync(script, wrkScript(method, expected));
  const cpuBefore = cpuMicros(pid);
  const run = spawnSync('wrk', ['-t1', '-c50', `-d${seconds}s`, '--latency', '-s', script, ...headers.flatMap((h) => ['-H', h]), url], {
    encoding: 'utf8',
  });
  const cpu = cpuMicros(pid) - cpuBefore;
  const output = run.stdout;
  const requests = Number(/(\d+) requests in/.exec(output)?.[1]);
  const allRate = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const unexpected = Number(/unexpected answers: (\d+)/.exec(output)?.[1]);
  if (!requests || !allRate || Number.isNaN(unexpected))
    throw new Error(`wrk printed no rate for ${method} ${url}:\n${output}${run.stderr}`);
  const percentile = (p) => toMicros(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const failures = [
    unexpected > 0 ? `${unexpected} answers other than ${expected}` : undefined,
    /Socket errors: .*/.exec(output)?.[0],
  ].filter(Boolean);
  const counted = requests - unexpected;
  return {
    rate: (allRate * counted) / requests,
    p50: percentile(50),
    p99: percentile(99),
    cpuPerRequest: cpu / Math.max(1, counted),
    failures,
  };
}
