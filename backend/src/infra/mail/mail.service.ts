import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { PermanentFailure } from '../queue/permanent-failure.js';

/** A person's address; the name is user text, so it is never spliced into a header string. */
export interface MailAddress {
  name: string;
  address: string;
}

export interface OutgoingMail {
  /**
   * Names this mail: what it is about and which kind it is (e.g. "contact-<id>.staff"). It becomes
   * the Message-ID, so a mail sent again after a crash is recognised by the receiver as a repeat.
   */
  key: string;
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML, for mail with pictures (alerts); the text stays for clients that show text. */
  html?: string;
  replyTo?: MailAddress;
  /** A one-click unsubscribe address (List-Unsubscribe header), for mail sent to a list. */
  listUnsubscribe?: string;
  /** The List-Unsubscribe address takes a one-click POST (RFC 8058): mail apps then unsubscribe without a page. */
  oneClickUnsubscribe?: boolean;
}

/**
 * Sends mail through SMTP when SMTP_URL is set, otherwise writes each message to the local
 * outbox folder as an .eml file (any mail client opens it) with a .json summary beside it.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  private readonly transporter: Transporter;
  private readonly outboxDir: string | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { smtpUrl, outboxDir } = config.mail;
    if (smtpUrl) {
      this.transporter = nodemailer.createTransport(smtpUrl);
    } else {
      this.transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      this.outboxDir = outboxDir;
    }
  }

  get transportName(): 'smtp' | 'outbox' {
    return this.outboxDir ? 'outbox' : 'smtp';
  }

  async send(mail: OutgoingMail): Promise<void> {
    const { key, listUnsubscribe, oneClickUnsubscribe, ...message } = mail;
    // The outbox refuses what a real SMTP server would refuse for good: the .invalid domain never exists (RFC 2606).
    if (this.outboxDir && /\.invalid$/i.test(mail.to.trim())) {
      throw new PermanentFailure(`Recipient refused: the domain of ${mail.to} does not exist (.invalid is reserved)`);
    }
    let info;
    try {
      info = await this.transporter.sendMail({
        from: this.config.mail.from,
        ...message,
        ...(listUnsubscribe ? { list: { unsubscribe: listUnsubscribe } } : {}),
        ...(listUnsubscribe && oneClickUnsubscribe ? { headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
        messageId: this.messageIdFor(key),
      });
    } catch (error) {
      // 5xx: the SMTP server refused for good (unknown recipient, policy); 4xx and network errors are worth retrying.
      const code = (error as { responseCode?: number }).responseCode;
      if (code !== undefined && code >= 500)
        throw new PermanentFailure(`SMTP server refused the mail (${code}): ${(error as Error).message}`);
      throw error;
    }
    if (this.outboxDir) await this.writeToOutbox(info.messageId, info.message as Buffer, mail);
    // Neither recipients nor subjects (they hold what people typed) go to the logs; the id finds the mail.
    this.logger.log(`mail ${info.messageId} sent via ${this.transportName}`);
  }

  /** `<key@sender-domain>`: stable for the same key. */
  messageIdFor(key: string): string {
    const domain = /@([^>\s]+)>?\s*$/.exec(this.config.mail.from)?.[1] ?? 'fieldmarket.local';
    return `<${key.replace(/[^\w.-]/g, '-')}@${domain}>`;
  }

  /** For the health check: the outbox folder is writable, or the SMTP server answers. */
  async check(): Promise<string> {
    if (this.outboxDir) {
      await mkdir(this.outboxDir, { recursive: true });
      return `outbox at ${this.outboxDir}`;
    }
    await this.transporter.verify();
    return 'SMTP server reachable';
  }

  private async writeToOutbox(messageId: string, raw: Buffer, mail: OutgoingMail): Promise<void> {
    const dir = this.outboxDir as string;
    await mkdir(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const base = `${stamp}-${randomBytes(4).toString('hex')}`; // two mails may be written in the same millisecond
    await writeWhole(join(dir, `${base}.eml`), raw);
    const replyTo = mail.replyTo && `${mail.replyTo.name} <${mail.replyTo.address}>`;
    const summary = { messageId, from: this.config.mail.from, ...mail, replyTo, date: new Date().toISOString() };
    await writeWhole(join(dir, `${base}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  }

  onApplicationShutdown(): void {
    this.transporter.close();
  }
}

/**
 * Writes a file under a temporary name, then renames it into place: whoever reads the outbox (a
 * person, a test) never sees a file half written (a test once read an empty .json summary).
 */
async function writeWhole(path: string, data: string | Buffer): Promise<void> {
  const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, data);
  await rename(partial, path);
}
