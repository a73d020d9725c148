import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { loadConfig } from '../../config/env.js';
import { MailService } from './mail.service.js';

describe('MailService (local outbox)', () => {
  it('writes a readable .eml whose Reply-To holds only the given address, whatever the name says', async () => {
    const outbox = await mkdtemp(join(tmpdir(), 'fm-outbox-'));
    const mail = new MailService(loadConfig({ MAIL_OUTBOX_DIR: outbox }));
    await mail.send({
      key: 'test.reply-to',
      to: 'staff@fieldmarket.test',
      subject: 'Hello',
      text: 'Body',
      replyTo: { name: 'Jane, evil@attacker.example <evil@attacker.example>, Bob', address: 'jane@example.co.uk' },
    });
    const eml = (await readdir(outbox)).find((f) => f.endsWith('.eml')) as string;
    const raw = await readFile(join(outbox, eml), 'utf8');
    const headers = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? ''; // unfold long headers
    const header = /^Reply-To: (.*)$/m.exec(headers)?.[1] ?? '';
    expect(addressparser(header, { flatten: true }).map((a) => a.address)).toEqual(['jane@example.co.uk']);
    expect(raw).toMatch(/^To: staff@fieldmarket\.test$/m);
    mail.onApplicationShutdown();
  });
});
