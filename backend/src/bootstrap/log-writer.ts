import { write, writeSync } from 'node:fs';

/** Past this many queued characters (a log reader that stopped reading), lines are dropped and counted. */
const MAX_QUEUED_CHARS = 16 * 1024 * 1024;
/** How long to wait before retrying when a non-blocking descriptor is full. */
const RETRY_FULL_MS = 10;

/**
 * Writes log lines to a file descriptor (stdout, stderr) without blocking the event loop: lines
 * queue in memory and the thread pool writes them, everything queued during one write going out
 * in the next. Node's own process.stdout writes synchronously to pipes and files on Linux, so a
 * busy server would wait on its log reader once per request.
 */
export class AsyncLineWriter {
  private queue: string[] = [];
  private queuedChars = 0;
  private dropped = 0;
  private writing = false;
  private broken = false;
  private readonly idle: Array<() => void> = [];

  /** `dropNotice`: the line that tells the reader how many lines were dropped, in the stream's format. */
  constructor(
    private readonly fd: number,
    private readonly dropNotice: (count: number) => string,
  ) {}

  /** Queues `text` (whole lines, each ending in \n). */
  write(text: string): void {
    if (this.broken) return;
    if (this.queuedChars + text.length > MAX_QUEUED_CHARS) {
      this.dropped++;
      return;
    }
    this.queue.push(text);
    this.queuedChars += text.length;
    if (!this.writing) this.writeQueue();
  }

  /** Resolves when every line queued so far has been handed to the descriptor. */
  drained(): Promise<void> {
    return this.writing ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /**
   * Writes what is still queued, synchronously: for the process's `exit` event, where nothing
   * asynchronous runs any more. A write already under way completes in the thread pool.
   */
  flushSync(): void {
    const text = this.takeQueue();
    if (this.broken || text.length === 0) return;
    try {
      writeSync(this.fd, text);
    } catch {
      // The reader is gone; nothing left to tell it.
    }
  }

  private takeQueue(): string {
    const text = this.queue.join('') + this.droppedNotice();
    this.queue = [];
    this.queuedChars = 0;
    return text;
  }

  private droppedNotice(): string {
    if (this.dropped === 0) return '';
    const notice = this.dropNotice(this.dropped);
    this.dropped = 0;
    return notice;
  }

  private writeQueue(): void {
    this.writing = true;
    this.writeBuffer(Buffer.from(this.takeQueue()), 0);
  }

  private writeBuffer(data: Buffer, offset: number): void {
    write(this.fd, data, offset, data.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') {
        setTimeout(() => this.writeBuffer(data, offset), RETRY_FULL_MS).unref();
        return;
      }
      if (error) {
        // EPIPE and the like: the reader is gone for good. Stop, rather than queue for ever.
        this.broken = true;
        this.queue = [];
        this.queuedChars = 0;
      } else if (offset + written < data.length) {
        this.writeBuffer(data, offset + written);
        return;
      } else if (this.queue.length > 0 || this.dropped > 0) {
        this.writeQueue();
        return;
      }
      this.writing = false;
      for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}
