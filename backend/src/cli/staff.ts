import 'reflect-metadata';
import { runStaffCommand } from './staff-command.js';

/** `./fieldmarket staff grant|revoke <email>` (staff-command.ts says what it does). */
process.exitCode = await runStaffCommand(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  error: (line) => console.error(line),
});
