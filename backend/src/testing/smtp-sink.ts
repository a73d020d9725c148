import { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Connections opened so far. */
  readonly connections: number;
  /** Answers the next delivery to `address` with a temporary failure (451), as a flaky server would. */
  failNextDeliveryTo(address: string): void;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives, for tests of the SMTP transport. */
export async function startSmtpSink(
  options: {
    replyDelayMs?: number;
    /** Called with each mail once it is wholly received, before the server answers 250 (a test may kill the sender here). */
    onReceived?: (mail: ReceivedMail, index: number) => void;
  } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const failOnce = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (failOnce.delete(address.address)) {
        const error = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        received.push(mail);
        options.onReceived?.(mail, received.length - 1);
        // A slow server: the mail is accepted only after a while.
        setTimeout(callback, options.replyDelayMs ?? 0);
      });
    },
  });
  // A sender that dies mid-transaction resets its connection (ECONNRESET), which smtp-server emits as
  // an error; a real server logs it and goes on serving, and so does this one (unheard, it would throw).
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get connections() {
      return connections;
    },
    failNextDeliveryTo: (address) => failOnce.add(address),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A header of a raw message, unfolded. */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
}
