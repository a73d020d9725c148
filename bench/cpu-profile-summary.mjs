// Where a process spent its CPU, from a profile written by node --cpu-prof (bench/http.mjs --cpu-prof dir):
//   node bench/cpu-profile-summary.mjs <file.cpuprofile> [top] [--window from-to]
// Prints self time by package (a dependency in node_modules, Node's internals, or our own code)
// and the `top` (default 25) functions by self time, each as a share of the busy time (idle excluded).
// --window 12-2: only the samples from 12 s to 2 s before the profile ends, e.g. the last wrk run
// of bench/http.mjs without the start (module loading) and the shutdown.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const windowArg = args[args.indexOf('--window') + 1];
const [file, topArg] = args.filter((arg, i) => arg !== '--window' && args[i - 1] !== '--window');
if (!file) {
  console.error('usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top] [--window from-to]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const [fromEnd, toEnd] = args.includes('--window') ? windowArg.split('-').map((s) => Number(s) * 1e6) : [Infinity, 0];

const selfMicros = new Map();
let at = profile.startTime;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  at += delta;
  const beforeEnd = profile.endTime - at;
  if (beforeEnd <= fromEnd && beforeEnd >= toEnd) selfMicros.set(id, (selfMicros.get(id) ?? 0) + delta);
});

/** The package a script belongs to: the last node_modules entry in its path, Node itself, or ours. */
function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internals)';
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  const own = /\/(backend|frontend|bench)\/(?:dist\/)?/.exec(url);
  return own ? `(our ${own[1]})` : url;
}

const byPackage = new Map();
const byFunction = new Map();
let busy = 0;
for (const node of profile.nodes) {
  const micros = selfMicros.get(node.id) ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)' || micros === 0) continue;
  busy += micros;
  const pkg = packageOf(url, functionName);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  const where = url
    ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(backend|frontend)\//, '$1/')}:${lineNumber + 1}`
    : '';
  const key = `${functionName || '(anonymous)'} ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
}

const share = (micros) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
const print = (title, entries, limit) => {
  console.log(title);
  for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, limit)) console.log(`  ${share(micros)}  ${name}`);
};
console.log(`${file}: ${(busy / 1e6).toFixed(2)} s busy`);
print('self time by package', byPackage, 20);
print(`top ${top} functions by self time`, byFunction, top);
