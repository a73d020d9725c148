import pg from 'pg';
import { ConfigError, loadConfig } from '../config/env.js';
import { commandDatabaseUrl } from '../infra/database/command-database.js';
import { endSessionsFromCommandLine } from '../modules/auth/ended-sessions.js';
import { setStaffRole } from '../modules/users/account-standing.js';

const USAGE = 'usage: ./fieldmarket staff grant <email> | ./fieldmarket staff revoke <email>';

/** Where the command writes: the terminal for `./fieldmarket staff`, collected text for a test. */
export interface CommandOutput {
  out(line: string): void;
  error(line: string): void;
}

/**
 * `./fieldmarket staff grant <email>` / `./fieldmarket staff revoke <email>` (cli/staff.ts runs it with the
 * process's arguments and environment): the only way to give or take the staff role (no API route can).
 * Works on DATABASE_URL, or on the embedded database of a running `./fieldmarket start` (same DATA_DIR and
 * EMBEDDED_PG_PORT). Returns the exit code: 0 done (or nothing to change), 1 no such account or a failure,
 * 2 a usage error.
 */
export async function runStaffCommand(args: string[], env: Record<string, string | undefined>, output: CommandOutput): Promise<number> {
  try {
    return await changeStaffRole(args, env, output);
  } catch (error) {
    output.error(
      error instanceof ConfigError ? error.message : `The staff command failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

async function changeStaffRole([action, email]: string[], env: Record<string, string | undefined>, output: CommandOutput): Promise<number> {
  if ((action !== 'grant' && action !== 'revoke') || !email || !email.includes('@')) {
    output.error(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const client = new pg.Client({ connectionString: commandDatabaseUrl(config), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new ConfigError(
      config.database.url
        ? `Cannot reach the database at DATABASE_URL: ${(error as Error).message}`
        : `Cannot reach the embedded database on port ${config.database.embeddedPort}: start the product first (./fieldmarket start), or set DATABASE_URL. (${(error as Error).message})`,
    );
  }
  try {
    // The role and the end of every session in one transaction: no session signed in under the
    // old role outlives the change (staff pages then need a new sign-in with the two-factor code).
    await client.query('begin');
    const change = await setStaffRole(client, email, action === 'grant' ? 'staff' : 'user');
    const ended = change?.changed ? await endSessionsFromCommandLine(client, change.userId) : 0;
    await client.query('commit');
    if (!change) {
      output.error(`No account has the address ${email.trim().toLowerCase()}. The person signs up first, then you grant the role.`);
      return 1;
    }
    const who = `${change.name} <${change.email}>`;
    if (action === 'grant') {
      output.out(change.changed ? `${who} is now staff.` : `${who} was already staff; nothing changed.`);
      if (!change.twoFactor) {
        output.out('They have not turned on two-factor sign-in: staff pages stay closed to them until they do (Profile, Security).');
      }
    } else {
      output.out(change.changed ? `${who} is no longer staff.` : `${who} was not staff; nothing changed.`);
    }
    if (ended > 0) output.out(`Signed out of ${ended} session${ended === 1 ? '' : 's'}: they sign in again.`);
    return 0;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
