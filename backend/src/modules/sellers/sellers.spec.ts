import { beforeAll, describe, expect, it } from '@jest/globals';
import { SELLER_TEXTS } from '../../contracts/trust.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { listingBody, postListing } from '../../testing/listings.js';
import { staffMember } from '../../testing/staff.js';
import { readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

type Member = Awaited<ReturnType<typeof signedInPerson>>;
const TRADE = { seller_type: 'trade', business_name: 'Levels Dairy Ltd', company_number: 'sc 123456', vat_number: 'GB 999 9999 73' };

/** Issue 23 §2: private or trade before the first listing, trade details checked, "Business verified" only from staff. */
describe('sellers', () => {
  // Search answers are kept a minute: what ends a reuse here is a change of the seller's facts on cards.
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', SEARCH_CACHE_MS: '60000' });
  let staff: Awaited<ReturnType<typeof staffMember>>;

  beforeAll(async () => {
    staff = await staffMember(t, db);
  });

  const publicProfile = async (id: string) =>
    (await new Browser(t).call('GET', `/api/profile/public/${id}`)).json<{ data: Record<string, unknown> }>().data;

  it('choose private or trade with their first listing; a trader names the business', async () => {
    const seller = await signedInPerson(t);
    const untyped = await seller.browser.call('POST', '/api/listings', await listingBody(seller.browser, { seller_type: undefined }));
    expect([untyped.statusCode, untyped.json()]).toEqual([
      400,
      expect.objectContaining({ fields: { seller_type: SELLER_TEXTS.chooseType } }),
    ]);
    const nameless = await seller.browser.call('POST', '/api/listings', await listingBody(seller.browser, { seller_type: 'trade' }));
    expect(nameless.json()).toMatchObject({ fields: { business_name: SELLER_TEXTS.businessNameRequired } });
    expect(await db.query('select id from listing where seller_id = $1', [seller.id])).toEqual([]);

    await postListing(seller.browser, { seller_type: 'trade', business_name: 'Quantock Machinery' });
    expect((await seller.browser.call('GET', '/api/listings/seller-declaration')).json()).toMatchObject({ data: { seller_type: 'trade' } });
    expect(await publicProfile(seller.id)).toMatchObject({
      seller_type: 'trade',
      business_name: 'Quantock Machinery',
      business_verified: false,
    });
    // Asked once: the next listing needs no choice.
    await postListing(seller.browser, { seller_type: undefined });
  });

  it('refuses company and VAT numbers in the wrong form or with wrong check digits, keeping the details', async () => {
    const seller = await signedInPerson(t);
    expect((await seller.browser.call('PUT', '/api/profile/seller', TRADE)).json()).toMatchObject({
      data: { seller_type: 'trade', company_number: 'SC123456', vat_number: 'GB999999973', business_verified_at: null },
    });
    const wrong = await seller.browser.call('PUT', '/api/profile/seller', {
      ...TRADE,
      company_number: '1234',
      vat_number: 'GB 999 9999 74',
    });
    expect([wrong.statusCode, wrong.json()]).toEqual([
      400,
      expect.objectContaining({
        fields: {
          company_number: 'Companies House number must be 8 characters: 8 digits, or 2 letters and 6 digits (like 01234567 or SC123456)',
          vat_number: 'VAT number is not valid: please check the digits',
        },
      }),
    ]);
    const untyped = await seller.browser.call('PUT', '/api/profile/seller', { seller_type: 'farmer' });
    expect(untyped.json()).toMatchObject({ fields: { seller_type: SELLER_TEXTS.chooseType } });
    expect((await seller.browser.call('GET', '/api/profile/seller')).json()).toMatchObject({ data: { company_number: 'SC123456' } });
  });

  describe('a business check', () => {
    let trader: Member;
    let listingId: string;

    beforeAll(async () => {
      trader = await signedInPerson(t, newPerson('Tess Trader'));
      listingId = (await postListing(trader.browser, { ...TRADE, title: 'Tess’s trade-only tedder' })).id;
      await trader.browser.call('PUT', '/api/profile/seller', TRADE);
    });

    const inboxItem = async () => {
      const inbox = await staff.browser.call('GET', '/api/staff/inbox?kind=business&status=all');
      return inbox
        .json<{ data: { items: Array<{ id: string; from: { name: string } | null }> } }>()
        .data.items.find((i) => i.from?.name === 'Tess Trader')!;
    };
    const verifiedTitles = async () =>
      (await new Browser(t).call('GET', '/api/listings?verified=true&q=tedder'))
        .json<{ data: { listings: Array<{ title: string }> } }>()
        .data.listings.map((l) => l.title);

    it('is refused to a private seller, and asked once while it waits', async () => {
      const privateSeller = await signedInPerson(t);
      await privateSeller.browser.call('PUT', '/api/profile/seller', { seller_type: 'private' });
      const refused = await privateSeller.browser.call('POST', '/api/profile/seller/business-check', {});
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([400, SELLER_TEXTS.verificationNeedsTrade]);

      expect((await trader.browser.call('POST', '/api/profile/seller/business-check', {})).statusCode).toBe(201);
      const again = await trader.browser.call('POST', '/api/profile/seller/business-check', {});
      expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([409, SELLER_TEXTS.verificationWaiting]);
    });

    it('waits one at a time even when two are asked at the same moment (409 for the other)', async () => {
      const quick = await signedInPerson(t, newPerson('Quinn Quick'));
      await quick.browser.call('PUT', '/api/profile/seller', TRADE);
      const ask = () => quick.browser.call('POST', '/api/profile/seller/business-check', {});
      const answers = await Promise.all([ask(), ask(), ask()]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
      expect(await db.query(`select id from business_verification where seller_id = $1`, [quick.id])).toHaveLength(1);
    });

    it('declined with a reason that the seller is sent; approved, the badge shows with its date and the filter finds the seller', async () => {
      expect(await verifiedTitles()).toEqual([]);
      const item = await inboxItem();
      const decline = await staff.browser.call('POST', `/api/staff/inbox/business/${item.id}/decision`, {
        decision: 'decline',
        reason: 'The company number belongs to another business.',
      });
      expect(decline.statusCode).toBe(204);
      await waitForJobs(db);
      const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === trader.person.email);
      expect(mails.at(-1)).toMatchObject({ subject: 'We could not verify your business details' });
      expect(mails.at(-1)?.text).toContain('The company number belongs to another business.');
      expect(await publicProfile(trader.id)).toMatchObject({ business_verified: false, business_verified_at: null });

      await trader.browser.call('POST', '/api/profile/seller/business-check', {});
      const approve = await staff.browser.call('POST', `/api/staff/inbox/business/${(await inboxItem()).id}/decision`, {
        decision: 'approve',
      });
      expect(approve.statusCode).toBe(204);
      expect(await publicProfile(trader.id)).toMatchObject({ business_verified: true, business_verified_at: expect.any(String) });
      const listing = (await new Browser(t).call('GET', `/api/listings/${listingId}`)).json<{ data: Record<string, unknown> }>().data;
      expect(listing).toMatchObject({
        seller_verified: true,
        seller_type: 'trade',
        seller: { verified: true, business_name: 'Levels Dairy Ltd' },
      });
      // The kept answer without her went when the badge was given: the next search finds her at once.
      expect(await verifiedTitles()).toEqual(['Tess’s trade-only tedder']);
      const audit = (await staff.browser.call('GET', `/api/staff/audit?target_kind=business&target_id=${(await inboxItem()).id}`)).body;
      expect(audit).toContain('business.approve');

      // Changing the details takes the badge away until our team checks again.
      await trader.browser.call('PUT', '/api/profile/seller', { ...TRADE, business_name: 'Levels Dairy and Beef Ltd' });
      expect(await publicProfile(trader.id)).toMatchObject({ business_verified: false });
      expect(await verifiedTitles()).toEqual([]);
    });
  });

  it('keeps a public profile’s statistics a minute for visitors (not run for every visit); its owner sees them at once', async () => {
    const seller = await signedInPerson(t);
    const { id } = await postListing(seller.browser);
    expect(await publicProfile(seller.id)).toMatchObject({ listings_sold: 0 });
    await seller.browser.call('PATCH', `/api/listings/${id}/status`, { status: 'sold' });
    expect(await publicProfile(seller.id)).toMatchObject({ listings_sold: 0 });
    const own = await seller.browser.call('GET', `/api/profile/public/${seller.id}`);
    expect(own.json()).toMatchObject({ data: { listings_sold: 1 } });
  });

  it('shows member facts on the public profile: listings sold, coarse last activity, no reply time under 3 replies', async () => {
    const seller = await signedInPerson(t);
    const { id } = await postListing(seller.browser);
    await seller.browser.call('PATCH', `/api/listings/${id}/status`, { status: 'sold' });
    expect(await publicProfile(seller.id)).toMatchObject({
      listings_sold: 1,
      last_active: 'today',
      typical_reply_minutes: null,
      cph_declared: false,
    });
  });
});
