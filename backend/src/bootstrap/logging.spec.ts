import { describe, expect, it } from '@jest/globals';
import { useTestDatabase } from '../testing/test-context.js';
import { eventually } from '../testing/test-app.js';
import { startWebProcess } from '../testing/web-process.js';

interface LogRecord {
  level: string;
  message: string;
  context?: string;
  requestId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
}

// The log as an operator reads it: the real web process's stdout.
describe('the web process log', () => {
  const db = useTestDatabase();

  it('writes JSON lines in production, one access line per API request carrying its request id, and all of it before exiting', async () => {
    const web = await startWebProcess(db, { NODE_ENV: 'production', LOG_LEVEL: 'log' });
    let exitCode: number | null | undefined;
    try {
      const response = await fetch(`${web.origin}/api/categories?email=someone@example.co.uk`);
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await fetch(`${web.origin}/api/categories/99`)).status).toBe(404);
      // Successful health probes are logged at debug only, below LOG_LEVEL=log.
      expect((await fetch(`${web.origin}/api/health`)).status).toBe(200);
      expect((await fetch(`${web.origin}/api/health`, { method: 'OPTIONS' })).status).toBe(204);
      exitCode = await web.stop();

      const records = web.stdout().map((line) => JSON.parse(line) as LogRecord);
      // Nest's own lines and ours in the same stream, in the same format.
      expect(records).toContainEqual(
        expect.objectContaining({ level: 'log', message: expect.stringMatching(/^Fieldmarket is running at /) }),
      );
      const access = records.filter((record) => record.context === 'HTTP');
      expect(access).toEqual([
        expect.objectContaining({
          level: 'log',
          requestId,
          method: 'GET',
          path: '/api/categories',
          status: 200,
          ms: expect.any(Number),
          message: expect.stringMatching(new RegExp(`^GET /api/categories 200 [\\d.]+ms \\[${requestId}\\]$`)),
        }),
        expect.objectContaining({ method: 'GET', path: '/api/categories/99', status: 404 }),
      ]);
      // Logged during shutdown, after the last request: written out before the process exited.
      expect(records).toContainEqual(expect.objectContaining({ message: 'SIGTERM received: finishing in-flight work' }));
    } finally {
      exitCode ??= await web.stop();
    }
    expect(exitCode).toBe(0);
  });

  it('writes readable lines outside production, with health probes at LOG_LEVEL=debug', async () => {
    const web = await startWebProcess(db, { NODE_ENV: 'development', LOG_LEVEL: 'debug' });
    try {
      const response = await fetch(`${web.origin}/api/health`, { method: 'OPTIONS', headers: { 'x-request-id': 'probe-1' } });
      expect(response.headers.get('x-request-id')).toBe('probe-1');
      const line = await eventually(() => {
        const found = web.stdout().find((l) => l.includes('[probe-1]'));
        if (!found) throw new Error('no access line yet');
        return found;
      });
      expect(line).toMatch(/^\S+ +DEBUG \[HTTP\] OPTIONS \/api\/health 204 [\d.]+ms \[probe-1\]$/);
    } finally {
      await web.stop();
    }
  });
});
