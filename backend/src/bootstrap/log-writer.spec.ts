import { describe, expect, it } from '@jest/globals';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncLineWriter } from './log-writer.js';

async function withLogFile(run: (fd: number) => Promise<void>): Promise<string[]> {
  const file = join(await mkdtemp(join(tmpdir(), 'fm-log-')), 'out.log');
  const fd = openSync(file, 'w');
  try {
    await run(fd);
  } finally {
    closeSync(fd);
  }
  return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
}

describe('AsyncLineWriter', () => {
  it('writes every line, in order, including those queued while a write was under way', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const written = await withLogFile(async (fd) => {
      const writer = new AsyncLineWriter(fd, (count) => `dropped ${count}\n`);
      for (const line of lines) writer.write(`${line}\n`);
      await writer.drained();
    });
    expect(written).toEqual(lines);
  });

  it('drops lines past its memory limit when the reader falls behind, and says how many', async () => {
    const line = `${'x'.repeat(1023)}\n`;
    const written = await withLogFile(async (fd) => {
      const writer = new AsyncLineWriter(fd, (count) => `dropped ${count}\n`);
      // Nothing is written until this loop yields: 20 MB queue against a 16 MB limit.
      for (let i = 0; i < 20 * 1024; i++) writer.write(line);
      await writer.drained();
    });
    const notice = written.at(-1) ?? '';
    expect(notice).toMatch(/^dropped \d+$/);
    expect(written.length - 1 + Number(notice.split(' ')[1])).toBe(20 * 1024);
  });
});
