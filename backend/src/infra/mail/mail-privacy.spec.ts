import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../../bootstrap/logger.js';
import { captureLogs } from '../../testing/log-capture.js';
import { useTestApp } from '../../testing/test-context.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';

describe('what the logs say about mail', () => {
  const { db, t } = useTestApp({ LOG_LEVEL: 'verbose' });

  it('records each mail sent without the recipient address or the subject people typed', async () => {
    const logs = captureLogs(createLogger(t.config));
    try {
      const sender = {
        name: 'Jane Farmer',
        email: 'jane.private@example.co.uk',
        subject: 'Private matter 7731',
        message: 'Please keep this quiet.',
      };
      expect((await t.app.inject({ method: 'POST', url: '/api/contact', payload: sender })).statusCode).toBe(201);
      await waitForJobs(db);
      await eventually(async () => expect(await readOutbox(t.config.mail.outboxDir)).toHaveLength(2));
      const mailLines = logs.lines.filter((line) => line.text.startsWith('mail '));
      expect(mailLines).toHaveLength(2);
      for (const line of logs.lines) {
        for (const secret of ['jane.private', 'example.co.uk', t.config.mail.staffAddress, 'Private matter 7731']) {
          expect(line.text).not.toContain(secret);
        }
      }
    } finally {
      logs.restore();
    }
  });
});
