import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../../bootstrap/logger.js';
import { Browser, newPerson, signedInPerson, type Person } from '../../testing/accounts.js';
import { ControlledClock } from '../../testing/clock.js';
import { captureLogs } from '../../testing/log-capture.js';
import { useTestApp } from '../../testing/test-context.js';
import { readOutbox, waitForJobs, type TestApp } from '../../testing/test-app.js';
import { RetentionJob } from './retention.job.js';

const DAY = 24 * 3600_000;
const feedback = { name: 'Jane Farmer', email: 'jane@example.co.uk', category: 'other', rating: 3, message: 'Some thoughts on the site.' };
const contact = { name: 'Jane Farmer', email: 'jane@example.co.uk', subject: 'Hay', message: 'Do you sell hay in Kent?' };

/** Two years after `date`, as the calendar counts them. */
const twoYearsAfter = (date: Date) =>
  new Date(
    Date.UTC(
      date.getUTCFullYear() + 2,
      date.getUTCMonth(),
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );

describe('the retention job, with a clock the test moves', () => {
  const clock = new ControlledClock();

  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' }, { clock });

  const run = async () => {
    const report = await t.app.get(RetentionJob).run();
    await waitForJobs(db);
    return report;
  };
  const warningsTo = async (email: string) =>
    (await readOutbox(t.config.mail.outboxDir)).filter(
      (m) => m.to === email && m.subject.startsWith('Your Fieldmarket account will be deleted'),
    );
  const account = async (id: string) =>
    (
      await db.query<{ email: string; deleted_at: Date | null; inactivity_warned_at: Date | null; sessions: string }>(
        `select email, deleted_at, inactivity_warned_at, (select count(*) from user_session s where s.user_id = u.id) as sessions
           from app_user u where id = $1`,
        [id],
      )
    )[0];

  it('warns once 30 days ahead, deletes after the grace period, spares an account used again, and touches nothing else', async () => {
    const start = clock.now();
    const leaving = await signedInPerson(t, newPerson('Ada Gone'));
    const returning = await signedInPerson(t, newPerson('Bob Back'));
    const alsoLeaving = await signedInPerson(t, newPerson('Cy Gone'));
    expect((await t.app.inject({ method: 'POST', url: '/api/feedback', payload: feedback, remoteAddress: '10.2.0.1' })).statusCode).toBe(
      201,
    );
    expect((await t.app.inject({ method: 'POST', url: '/api/contact', payload: contact, remoteAddress: '10.2.0.1' })).statusCode).toBe(201);
    await waitForJobs(db);

    // 31 days before the two years are up: too early for a warning.
    clock.set(new Date(twoYearsAfter(start).getTime() - 31 * DAY));
    expect(await run()).toMatchObject({ warned: 0, deleted: 0 });

    // 29 days before: each of the three is warned, by e-mail, with the date.
    clock.advanceDays(2);
    const logs = captureLogs(createLogger(t.config));
    let report;
    try {
      report = await run();
    } finally {
      logs.restore();
    }
    expect(report).toMatchObject({ warned: 3, deleted: 0, purged: { 'contact messages': 0, feedback: 0 } });
    const [warning] = await warningsTo(leaving.person.email);
    expect(warning?.text).toContain(`${t.config.publicUrl}/signin`);
    // The log line gives counts, never who.
    const line = logs.lines.find((l) => l.text.startsWith('retention run:'));
    expect(line?.text).toContain(
      'retention run: 3 inactive account(s) warned, 0 deleted, 0 back in use; purged 0 hidden listings, 0 contact messages, 0 feedback',
    );
    for (const l of logs.lines) for (const p of [leaving, returning, alsoLeaving]) expect(l.text).not.toContain(p.person.email);

    // Someone new joins, and sends feedback; a contact message arrives (now, by the clock).
    const newcomer = await signedInPerson(t, newPerson('Dee New'));
    await newcomer.browser.call('POST', '/api/feedback', feedback);
    await db.query(
      `insert into contact_message (id, name, email, subject, message, client_ip, created_at, acknowledgement_due)
       values (gen_random_uuid(), 'Recent', 'recent@example.co.uk', 'Recent', 'A recent message.', '10.0.0.1', $1, false)`,
      [clock.now()],
    );

    // The next day's run warns nobody twice.
    clock.advanceDays(1);
    expect(await run()).toMatchObject({ warned: 0, deleted: 0 });
    for (const p of [leaving, returning, alsoLeaving]) expect(await warningsTo(p.person.email)).toHaveLength(1);

    // One of them comes back and signs in.
    await signIn(t, returning.person);

    // The two years are up, but the 30 days of grace are not: nothing is deleted yet.
    clock.set(twoYearsAfter(start));
    expect(await run()).toMatchObject({ deleted: 0, spared: 1 });

    // Grace over: the two who stayed away are deleted as a deletion from the profile would; old messages go.
    clock.advanceDays(1);
    expect(await run()).toMatchObject({ warned: 0, deleted: 2, spared: 0, purged: { 'contact messages': 1, feedback: 1 } });
    for (const gone of [leaving, alsoLeaving]) {
      expect(await account(gone.id)).toMatchObject({ email: `deleted-${gone.id}@deleted.invalid`, sessions: '0' });
      expect((await account(gone.id))?.deleted_at).not.toBeNull();
    }
    expect(await account(returning.id)).toMatchObject({ email: returning.person.email, deleted_at: null, inactivity_warned_at: null });
    expect(await account(newcomer.id)).toMatchObject({ email: newcomer.person.email, deleted_at: null, inactivity_warned_at: null });
    expect(Number((await account(newcomer.id))?.sessions)).toBeGreaterThan(0);
    expect(await db.query(`select user_id from feedback`)).toEqual([{ user_id: newcomer.id }]);
    expect(await db.query(`select name from contact_message`)).toEqual([{ name: 'Recent' }]);

    // The one who came back is warned again only after two more years away.
    clock.advanceDays(30);
    expect(await run()).toMatchObject({ warned: 0, deleted: 0 });
    expect(await warningsTo(returning.person.email)).toHaveLength(1);
  });
});

async function signIn(t: TestApp, person: Person): Promise<void> {
  const response = await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: person.password });
  expect(response.statusCode).toBe(200);
}
