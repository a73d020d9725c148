import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { productUnderTest } from './product.js';

export interface OutboxMail {
  messageId: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * How often a test looks for a mail it waits for (ms; the last repeats). The product writes a mail
 * a moment after the request that causes it; looking again every quarter second finds it then,
 * where expect.poll's default settles at a second between looks.
 */
export const MAIL_POLL_INTERVALS = [100, 100, 200, 250];

/** Mails already read, by path: the product writes each file whole and never changes it (it renames it into place). */
const read = new Map<string, Promise<OutboxMail>>();

/** The mails the running product wrote to its local outbox (DATA_DIR/outbox). */
export async function outboxMails(): Promise<OutboxMail[]> {
  const dir = join(productUnderTest().dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
  return Promise.all(
    files.map((f) => {
      const path = join(dir, f);
      let mail = read.get(path);
      if (!mail) {
        mail = readFile(path, 'utf8').then((text) => JSON.parse(text) as OutboxMail);
        read.set(path, mail);
      }
      return mail;
    }),
  );
}
