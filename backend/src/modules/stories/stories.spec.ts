import { beforeAll, describe, expect, it } from '@jest/globals';
import { STORY_TEXTS } from '../../contracts/stories.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { sendMessage, startConversation } from '../../testing/conversations.js';
import { postListing } from '../../testing/listings.js';
import { staffMember } from '../../testing/staff.js';
import { eventually, readOutbox } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

type Member = Awaited<ReturnType<typeof signedInPerson>>;
const STORY = 'Sold my old Massey to a lad two villages over; he came, looked it over and paid on collection.';

/** Issue 23 §1: only members who did a deal tell stories, and only approved ones are shown. */
describe('success stories', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000' });
  let staff: Awaited<ReturnType<typeof staffMember>>;

  beforeAll(async () => {
    staff = await staffMember(t, db);
  });

  /** A seller and a buyer who talked about a listing; `sold` marks it sold after. */
  async function talkedAbout({ sellerWrites = true, sold = true } = {}): Promise<{ seller: Member; buyer: Member }> {
    const seller = await signedInPerson(t, newPerson('Sam Seller'));
    const buyer = await signedInPerson(t, newPerson('Bella Buyer'));
    const listing = await postListing(seller.browser);
    const conversation = await startConversation(buyer, listing.id);
    await sendMessage(buyer, conversation.id, 'Is it still for sale? I could come on Saturday.');
    if (sellerWrites) await sendMessage(seller, conversation.id, 'Yes, Saturday morning suits.');
    if (sold) expect((await seller.browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'sold' })).statusCode).toBe(200);
    return { seller, buyer };
  }

  const published = async () => (await new Browser(t).call('GET', '/api/stories')).json<{ data: { stories: unknown[] } }>().data.stories;

  it('are refused from a member without a deal: none, one side silent, or not sold', async () => {
    const nobody = await signedInPerson(t);
    const silent = await talkedAbout({ sellerWrites: false });
    const unsold = await talkedAbout({ sold: false });
    for (const member of [nobody, silent.buyer, silent.seller, unsold.buyer]) {
      const refused = await member.browser.call('POST', '/api/stories', { story: STORY, naming: 'full-name' });
      expect([refused.statusCode, refused.json()]).toEqual([403, { success: false, error: STORY_TEXTS.noDeal }]);
      expect((await member.browser.call('GET', '/api/stories/mine')).json()).toMatchObject({ data: { eligible: false } });
    }
  });

  it('wait one at a time even when two are sent at the same moment (409 for the other)', async () => {
    const { buyer } = await talkedAbout();
    const send = () => buyer.browser.call('POST', '/api/stories', { story: STORY, naming: 'anonymous' });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409))
      expect(refused.json()).toMatchObject({ error: STORY_TEXTS.alreadyWaiting });
    expect(await db.query(`select id from success_story where author_id = $1 and status = 'pending'`, [buyer.id])).toHaveLength(1);
  });

  it('are checked: length, control characters, a naming', async () => {
    const { buyer } = await talkedAbout();
    const short = await buyer.browser.call('POST', '/api/stories', { story: 'Great!', naming: 'full-name' });
    expect(short.json()).toMatchObject({ fields: { story: 'Story must be at least 20 characters' } });
    const control = await buyer.browser.call('POST', '/api/stories', { story: `${STORY}\u0007`, naming: 'nickname' });
    expect(control.json()).toMatchObject({
      fields: { story: 'Story must not contain control characters', naming: 'Please choose how you are named' },
    });
    expect(await published()).toEqual([]);
  });

  it('are shown once staff approve them, named as the author chose; a decline needs a reason the author reads', async () => {
    const { seller, buyer } = await talkedAbout();
    const sent = await buyer.browser.call('POST', '/api/stories', { story: STORY, naming: 'first-name' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ data: { eligible: true, stories: [{ status: 'pending', naming: 'first-name' }] } });
    const again = await buyer.browser.call('POST', '/api/stories', { story: STORY, naming: 'first-name' });
    expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([409, STORY_TEXTS.alreadyWaiting]);
    expect(await published()).toEqual([]);

    // Staff find it in the inbox, a fourth source, and approve it.
    const inbox = (await staff.browser.call('GET', '/api/staff/inbox?kind=story')).json<{
      data: { items: Array<{ id: string; preview: string }> };
    }>();
    const item = inbox.data.items.find((i) => i.preview === STORY)!;
    expect(item).toBeDefined();
    const detail = await staff.browser.call('GET', `/api/staff/inbox/story/${item.id}`);
    expect(detail.json()).toMatchObject({ data: { body: STORY, decision: { state: 'pending', reason: null } } });
    const approve = await staff.browser.call('POST', `/api/staff/inbox/story/${item.id}/decision`, { decision: 'approve' });
    expect(approve.statusCode).toBe(204);
    expect(await published()).toEqual([
      expect.objectContaining({ story: STORY, author_name: 'Bella', deal: expect.stringMatching(/^Sold: /) }),
    ]);
    const audit = (await staff.browser.call('GET', `/api/staff/audit?target_kind=story&target_id=${item.id}`)).body;
    expect(audit).toContain('story.approve');
    // The author is told, by bell and by e-mail.
    await eventually(async () =>
      expect((await buyer.browser.call('GET', '/api/notifications')).json()).toMatchObject({
        data: {
          notifications: expect.arrayContaining([
            expect.objectContaining({ kind: 'STORY', title: 'Success Story', message: 'Your success story is published.' }),
          ]),
        },
      }),
    );
    await eventually(async () =>
      expect((await readOutbox(t.config.mail.outboxDir)).map((m) => [m.to, m.subject])).toContainEqual([
        buyer.person.email,
        'Your story is published on Fieldmarket',
      ]),
    );
    // The home page asks for as many as it shows.
    expect((await new Browser(t).call('GET', '/api/stories?limit=1')).json()).toMatchObject({ data: { stories: [expect.anything()] } });
    expect((await new Browser(t).call('GET', '/api/stories?limit=0')).json()).toMatchObject({ error: 'limit must be at least 1' });

    // The seller's story is declined: the reason is required, and the seller reads it.
    await seller.browser.call('POST', '/api/stories', { story: `${STORY} Now buying another.`, naming: 'anonymous' });
    const inbox2 = (await staff.browser.call('GET', '/api/staff/inbox?kind=story')).json<{
      data: { items: Array<{ id: string; preview: string }> };
    }>();
    const second = inbox2.data.items.find((i) => i.preview.endsWith('Now buying another.'))!;
    const noReason = await staff.browser.call('POST', `/api/staff/inbox/story/${second.id}/decision`, { decision: 'decline' });
    expect([noReason.statusCode, noReason.json()]).toEqual([
      400,
      expect.objectContaining({ fields: { reason: 'Write the reason first: the author is told it.' } }),
    ]);
    const reason = 'It names the buyer without asking them.';
    expect(
      (await staff.browser.call('POST', `/api/staff/inbox/story/${second.id}/decision`, { decision: 'decline', reason })).statusCode,
    ).toBe(204);
    expect((await seller.browser.call('GET', '/api/stories/mine')).json()).toMatchObject({
      data: { stories: [{ status: 'declined', decline_reason: reason }] },
    });
    expect(await published()).toHaveLength(1);
    await eventually(async () => {
      const mail = (await readOutbox(t.config.mail.outboxDir)).find(
        (m) => m.to === seller.person.email && m.subject === 'We did not publish your story',
      );
      expect(mail?.text).toContain(reason);
    });

    // Only staff decide.
    const notStaff = await buyer.browser.call('POST', `/api/staff/inbox/story/${second.id}/decision`, { decision: 'approve' });
    expect(notStaff.statusCode).toBe(403);
  });
});
