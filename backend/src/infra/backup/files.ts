import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type pg from 'pg';

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The server's version, e.g. "15.20" and 15. */
export async function serverMajor(client: pg.ClientBase): Promise<{ version: string; major: number }> {
  const [row] = (
    await client.query<{ version: string; num: string }>(
      `select current_setting('server_version') as version, current_setting('server_version_num') as num`,
    )
  ).rows;
  return { version: row.version, major: Math.floor(Number(row.num) / 10000) };
}
