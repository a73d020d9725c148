import 'reflect-metadata';
import pg from 'pg';
import { ConfigError, loadConfig } from '../config/env.js';
import { commandDatabaseUrl } from '../infra/database/command-database.js';
import { endSessionsFromCommandLine } from '../modules/auth/ended-sessions.js';
import { setStaffRole } from '../modules/users/account-standing.js';

/**
 * `./fieldmarket staff grant <email>` / `./fieldmarket staff revoke <email>`: the only way to give
 * or take the staff role (no API route can). Works on DATABASE_URL, or on the embedded database of
 * a running `./fieldmarket start` (same DATA_DIR and EMBEDDED_PG_PORT).
 */
const USAGE = 'usage: ./fieldmarket staff grant <email> | ./fieldmarket staff revoke <email>';

async function main(): Promise<number> {
  const [action, email] = process.argv.slice(2);
  if ((action !== 'grant' && action !== 'revoke') || !email || !email.includes('@')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
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
      console.error(`No account has the address ${email.trim().toLowerCase()}. The person signs up first, then you grant the role.`);
      return 1;
    }
    const who = `${change.name} <${change.email}>`;
    if (action === 'grant') {
      console.log(change.changed ? `${who} is now staff.` : `${who} was already staff; nothing changed.`);
      if (!change.twoFactor) {
        console.log('They have not turned on two-factor sign-in: staff pages stay closed to them until they do (Profile, Security).');
      }
    } else {
      console.log(change.changed ? `${who} is no longer staff.` : `${who} was not staff; nothing changed.`);
    }
    if (ended > 0) console.log(`Signed out of ${ended} session${ended === 1 ? '' : 's'}: they sign in again.`);
    return 0;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `The staff command failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
