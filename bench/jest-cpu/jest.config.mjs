// The suite's jest configuration with bench/jest-cpu/setup.mjs in every project: CPU per test file and phase.
//   FM_JEST_CPU_DIR=/tmp/cpu-after npx jest -c bench/jest-cpu/jest.config.mjs [files]
//   node bench/jest-cpu/summary.mjs /tmp/cpu-after [/tmp/cpu-before]
// With FM_JEST_GROUP_SIZE=8 (as the test command runs the suite) the figures are per group of spec files (jest.config.js).
import { fileURLToPath } from 'node:url';
import suite from '../../jest.config.js';

if (!process.env.FM_JEST_CPU_DIR) throw new Error('set FM_JEST_CPU_DIR to the folder the per-file figures go to');
const setup = fileURLToPath(new URL('./setup.mjs', import.meta.url));

export default {
  ...suite,
  rootDir: fileURLToPath(new URL('../..', import.meta.url)),
  projects: suite.projects.map((project) => ({ ...project, setupFilesAfterEnv: [...(project.setupFilesAfterEnv ?? []), setup] })),
};
