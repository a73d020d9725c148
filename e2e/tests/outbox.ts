import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMail {
  messageId: string;
  to: string;
  subject: string;
  text: string;
}

/** The mails the running product wrote to its local outbox (DATA_DIR/outbox). */
export async function outboxMails(): Promise<OutboxMail[]> {
  const dir = join(process.env.FM_E2E_DATA_DIR as string, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as OutboxMail));
}
