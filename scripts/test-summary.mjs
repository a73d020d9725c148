// Prints one closing line over every suite: "tests: N passed, N failed".
import { readFileSync } from 'node:fs';

const [jestFile, e2eFile] = process.argv.slice(2);
const jest = JSON.parse(readFileSync(jestFile, 'utf8'));
const e2e = JSON.parse(readFileSync(e2eFile, 'utf8'));
const passed = jest.numPassedTests + (e2e.stats?.expected ?? 0);
const failed = jest.numFailedTests + (e2e.stats?.unexpected ?? 0) + (e2e.stats?.flaky ?? 0);
console.log(`\njest: ${jest.numPassedTests} passed; playwright: ${e2e.stats?.expected ?? 0} passed`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
