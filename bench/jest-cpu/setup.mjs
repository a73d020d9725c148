// Loaded in each jest test file by bench/jest-cpu/jest.config.mjs: records the CPU its worker process spent on the
// file (process.cpuUsage: every thread of the worker, not PostgreSQL or child processes) in three phases, and writes
// them to FM_JEST_CPU_DIR as one JSON file per test file:
//   load  — importing the test file and everything it imports (jest's module registry is per file);
//   boot  — its beforeAll hooks up to its first test (e.g. useTestApp: the database copy and the Nest app);
//   tests — its tests and afterAll hooks.
import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const started = { cpu: cpuSeconds(), wall: Date.now() };
let loaded;
let booted;

beforeAll(() => {
  loaded = { cpu: cpuSeconds(), wall: Date.now() };
});
beforeEach(() => {
  booted ??= { cpu: cpuSeconds(), wall: Date.now() };
});
afterAll(() => {
  const ended = { cpu: cpuSeconds(), wall: Date.now() };
  const firstTest = booted ?? ended;
  const phases = (key, scale) => ({
    load: (loaded[key] - started[key]) / scale,
    boot: (firstTest[key] - loaded[key]) / scale,
    tests: (ended[key] - firstTest[key]) / scale,
    total: (ended[key] - started[key]) / scale,
  });
  const path = expect.getState().testPath;
  const dir = process.env.FM_JEST_CPU_DIR;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${path.replace(/[/\\]/g, '_')}.json`),
    JSON.stringify({ path, cpu: phases('cpu', 1), wall: phases('wall', 1000) }),
  );
});
