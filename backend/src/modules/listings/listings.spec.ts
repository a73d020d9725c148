import { describe, expect, it } from '@jest/globals';
import { EntityManager } from '@mikro-orm/postgresql';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { LISTING_BODIES, listingBody, postListing } from '../../testing/listings.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { uploadPhotos } from '../../testing/images.js';
import { Listing } from './listing.entity.js';
import { IMAGE_MESSAGES } from '../../contracts/images.js';

interface Detail {
  id: string;
  title: string;
  price: number;
  status: string;
  views: number;
  saves_count: number;
  saved: boolean;
  is_owner: boolean;
  location: string;
  attributes: Record<string, unknown>;
  images: Array<{ id: string }>;
  expires_at: string;
}

describe('listings: posting and managing', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', IMAGE_UPLOADS_PER_HOUR: '1000' });

  // Every listing posted here carries two photos, unless the test brings its own.
  const post = (browser: Browser, change: Record<string, unknown> = {}) => postListing<Detail>(browser, change, 2);

  it('collects every message of the wizard in one answer, joined with commas', async () => {
    const { browser } = await signedInPerson(t);
    const response = await browser.call('POST', '/api/listings', {});
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; fields: Record<string, string> }>();
    expect(body.fields).toEqual({
      type: 'Listing type is required',
      category: 'Category is required',
      title: 'Title is required',
      description: 'Description is required',
      price: 'Price is required',
      location: 'Location is required',
      images: 'At least one image is required',
    });
    expect(body.error).toBe(Object.values(body.fields).join(', '));
  });

  it.each([
    ['description', 'Description must be at least 50 characters', { description: 'Too short to tell a buyer anything.' }],
    ['description', 'Description must be at most 1000 characters', { description: 'x'.repeat(1001) }],
    ['category', 'Invalid category selected', { category: 'tractors' }],
    ['price', 'Price must be a number from 0 to 100,000,000', { price: -5 }],
    ['price', 'Price must be a number from 0 to 100,000,000', { price: '38500' }],
    [
      'location',
      'Choose a town or village from the list, or type a UK postcode or outcode (EX20 1AB, TA1).',
      { location: 'Atlantis', place_id: undefined },
    ],
    ['attributes.hours', 'Hours must be a whole number from 0 to 200000', { attributes: { hours: -1 } }],
    ['attributes.year', `Year must be a whole number from 1900 to ${new Date().getFullYear() + 1}`, { attributes: { year: 1850 } }],
    ['attributes.make', 'Make must be on one line', { attributes: { make: 'Massey\nFerguson' } }],
    ['attributes.make', 'Make must be on one line', { attributes: { make: 'Massey\u2028Ferguson' } }],
    ['attributes.model', 'Model must be on one line', { attributes: { model: '5713\u0007SL' } }],
    ['price_unit', 'For a sale in Equipment the price is total', { price_unit: 'per-week' }],
    ['price_unit', 'For a sale in Equipment the price is total', { price_unit: 'per-head' }],
    ['subcategory', 'Please select a category', { type: 'rent', category: 'rentals' }],
  ])('refuses a bad %s with "%s" and posts nothing', async (field, message, change) => {
    const { browser, id } = await signedInPerson(t);
    const response = await browser.call('POST', '/api/listings', await listingBody(browser, change, 2));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { [field]: message } });
    expect(await db.query('select id from listing where seller_id = $1', [id])).toHaveLength(0);
  });

  it('asks a seller once to confirm they are 18 or over: refused without it, recorded with the first listing', async () => {
    const { browser, id } = await signedInPerson(t);
    const declaration = async () => (await browser.call('GET', '/api/listings/seller-declaration')).json();
    const declaredAt = async () =>
      (await db.query<{ at: Date | null }>('select over_eighteen_confirmed_at as at from app_user where id = $1', [id]))[0]?.at;
    expect(await declaration()).toEqual({ success: true, data: { over_18_confirmed: false, seller_type: null } });
    for (const confirm of [undefined, false]) {
      const refused = await browser.call('POST', '/api/listings', await listingBody(browser, { confirm_over_18: confirm }, 2));
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        {
          success: false,
          error: 'Please confirm you are 18 or over to post a listing.',
          fields: { confirm_over_18: 'Please confirm you are 18 or over to post a listing.' },
        },
      ]);
    }
    expect(await db.query('select id from listing where seller_id = $1', [id])).toEqual([]);
    expect(await declaredAt()).toBeNull();

    const before = Date.now();
    await post(browser, { confirm_over_18: true });
    const at = await declaredAt();
    expect(at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await declaration()).toEqual({ success: true, data: { over_18_confirmed: true, seller_type: 'private' } });
    // Asked once: the next listing needs no declaration, and the first one's time is kept.
    await post(browser, { confirm_over_18: undefined, title: 'A second listing, no declaration needed' });
    expect(await declaredAt()).toEqual(at);
    expect((await new Browser(t).call('GET', '/api/listings/seller-declaration')).statusCode).toBe(401);
  });

  it('needs a confirmed e-mail address to post', async () => {
    const { browser, id } = await signedInPerson(t);
    await db.query('update app_user set email_verified_at = null where id = $1', [id]);
    const response = await browser.call('POST', '/api/listings', { title: 'x' });
    expect(response.statusCode).toBe(403);
    expect(response.json<{ error: string }>().error).toMatch(/^Please verify your email address first/);
  });

  it('posts a listing live at once, with its photos in order, its place and its fields', async () => {
    const { browser } = await signedInPerson(t);
    const images = await uploadPhotos(browser, 3);
    const listing = await post(browser, { images });
    expect(listing).toMatchObject({
      title: 'Massey Ferguson 5713 SL tractor',
      price: 38500,
      status: 'live',
      location: 'Taunton, England',
      attributes: { make: 'Massey Ferguson', model: '5713 SL', year: 2019, hours: 2400 },
      is_owner: true,
    });
    expect(listing.images.map((i) => i.id)).toEqual(images);
    const days = (Date.parse(listing.expires_at) - Date.now()) / (24 * 3600 * 1000);
    expect(Math.round(days)).toBe(90);
    const visitor = await new Browser(t).call('GET', `/api/listings/${listing.id}`);
    expect(visitor.json()).toMatchObject({ data: { id: listing.id, is_owner: false, saved: false } });
    // Its card in browse carries the same photos, in order, ready with their sizes.
    const browse = await new Browser(t).call('GET', `/api/listings?q=5713&sort=newest`);
    const card = browse.json<{ data: { listings: Array<{ id: string; images: Array<{ id: string; url: string | null }> }> } }>().data
      .listings[0];
    expect(card?.id).toBe(listing.id);
    expect(card?.images.map((i) => i.id)).toEqual(images);
    expect(card?.images.every((i) => i.url?.startsWith(`/media/images/${i.id}/`))).toBe(true);
  });

  it('puts a rental in Rentals, priced per period', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser, {
      type: 'rent',
      category: 'equipment',
      subcategory: 'equipment',
      price: 120,
      price_unit: 'per-day',
      attributes: { available_from: '2027-03-01', available_to: '2027-09-30', hours: 1500 },
    });
    const detail = (await new Browser(t).call('GET', `/api/listings/${listing.id}`)).json<{ data: Record<string, unknown> }>().data;
    expect(detail).toMatchObject({ type: 'rent', category_slug: 'rentals', rent_subcategory: 'equipment', price_unit: 'per-day' });
  });

  it.each(Object.entries(LISTING_BODIES))('posts a listing in %s with that category’s own fields', async (_category, body) => {
    const { browser } = await signedInPerson(t);
    const listing = await postListing<Detail>(browser, body);
    const detail = (await new Browser(t).call('GET', `/api/listings/${listing.id}`)).json<{ data: Record<string, unknown> }>().data;
    expect(detail).toMatchObject({
      title: body.title,
      type: body.type,
      category_slug: body.category,
      price_unit: body.price_unit,
      attributes: body.attributes,
    });
  });

  it('lets only the seller change, mark or delete a listing; anyone else gets “not found”', async () => {
    const seller = await signedInPerson(t);
    const other = await signedInPerson(t, newPerson('Ophelia Other'));
    const listing = await post(seller.browser);
    const attempts = [
      await other.browser.call('PUT', `/api/listings/${listing.id}`, await listingBody(other.browser, { title: 'Hijacked' }, 2)),
      await other.browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'withdrawn' }),
      await other.browser.call('DELETE', `/api/listings/${listing.id}`),
    ];
    for (const attempt of attempts)
      expect([attempt.statusCode, attempt.json<{ error: string }>().error]).toEqual([404, 'Listing Not Found']);
    // Nor can anyone attach the seller's photos to their own listing.
    const stolen = await other.browser.call(
      'POST',
      '/api/listings',
      await listingBody(other.browser, { images: listing.images.map((i) => i.id) }, 2),
    );
    expect([stolen.statusCode, stolen.json()]).toEqual([
      400,
      { success: false, error: IMAGE_MESSAGES.notYours, fields: { images: IMAGE_MESSAGES.notYours } },
    ]);
    expect(await db.query('select id from listing where seller_id = $1', [other.id])).toEqual([]);
    const [row] = await db.query<{ title: string; status: string }>('select title, status from listing where id = $1', [listing.id]);
    expect(row).toEqual({ title: 'Massey Ferguson 5713 SL tractor', status: 'live' });
  });

  it('changes price and details, and takes the seller through sold, withdrawn and renewed', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser);
    const edited = await browser.call(
      'PUT',
      `/api/listings/${listing.id}`,
      await listingBody(browser, { price: 36000, title: 'Massey Ferguson 5713 SL, reduced' }, 2),
    );
    expect(edited.json()).toMatchObject({ data: { price: 36000, title: 'Massey Ferguson 5713 SL, reduced' } });

    const sold = await browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'sold' });
    expect(sold.json()).toMatchObject({ data: { status: 'sold' } });
    expect((await new Browser(t).call('GET', `/api/listings/${listing.id}`)).statusCode).toBe(404);
    expect((await browser.call('GET', `/api/listings/${listing.id}`)).statusCode).toBe(200);
    const let_ = await browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'let' });
    expect([let_.statusCode, let_.json<{ error: string }>().error]).toEqual([400, 'Only a rental can be marked as let.']);

    await db.query(`update listing set expires_at = now() - interval '1 day', status = 'expired' where id = $1`, [listing.id]);
    const renewed = await browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'live' });
    expect(renewed.json()).toMatchObject({ data: { status: 'live' } });
    expect(Math.round((Date.parse(renewed.json<{ data: Detail }>().data.expires_at) - Date.now()) / 86_400_000)).toBe(90);

    await db.query(`update listing set status = 'removed' where id = $1`, [listing.id]);
    const refused = await browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'live' });
    expect(refused.statusCode).toBe(403);
  });

  it('shows a seller’s change in the next search at once, though searches are reused for a moment', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser, { title: 'Ifor Williams trailer, galvanised' });
    const search = async () =>
      (await new Browser(t).call('GET', '/api/listings?q=galvanised')).json<{ data: { listings: Array<{ id: string; price: number }> } }>()
        .data.listings;
    expect(await search()).toEqual([expect.objectContaining({ id: listing.id, price: 38500 })]);
    await browser.call(
      'PUT',
      `/api/listings/${listing.id}`,
      await listingBody(browser, { title: 'Ifor Williams trailer, galvanised', price: 36000 }, 2),
    );
    expect(await search()).toEqual([expect.objectContaining({ id: listing.id, price: 36000 })]);
    await browser.call('PATCH', `/api/listings/${listing.id}/status`, { status: 'sold' });
    expect(await search()).toEqual([]);
  });

  it('does not keep a search made between a write’s flush and its commit once the write has committed', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser, { title: 'Graham Edwards bale trailer' });
    const prices = async () =>
      (await new Browser(t).call('GET', '/api/listings?q=graham'))
        .json<{ data: { listings: Array<{ price: number }> } }>()
        .data.listings.map((card) => card.price);
    expect(await prices()).toEqual([38500]);
    await t.app
      .get(EntityManager)
      .fork()
      .transactional(async (tx) => {
        const row = await tx.findOneOrFail(Listing, { id: listing.id });
        row.pricePence = 3_000_000;
        await tx.flush();
        // Flushed, not committed: a search now still reads the old price, and its answer is kept.
        expect(await prices()).toEqual([38500]);
      });
    expect(await prices()).toEqual([30000]);
  });

  it('finds a listing by its words through its whole life: counted, edited, sold, renewed and deleted', async () => {
    const { browser } = await signedInPerson(t);
    const words = async (q: string) =>
      (await new Browser(t).call('GET', `/api/listings?q=${q}&sort=newest`)).json<{
        data: { listings: Array<{ id: string }>; total: number };
      }>().data;
    const first = await post(browser, { title: 'Zetor Crystal tractor' });
    const second = await post(browser, { title: 'Zetor Proxima tractor' });
    expect(await words('zetor')).toMatchObject({ total: 2, listings: [{ id: second.id }, { id: first.id }] });

    await browser.call('PUT', `/api/listings/${first.id}`, await listingBody(browser, { title: 'Zetor Major tractor' }, 2));
    expect((await words('crystal')).listings).toEqual([]);
    expect(await words('major')).toMatchObject({ total: 1, listings: [{ id: first.id }] });

    await browser.call('PATCH', `/api/listings/${first.id}/status`, { status: 'withdrawn' });
    expect(await words('zetor')).toMatchObject({ total: 1, listings: [{ id: second.id }] });
    // Renewed, it is the newest again.
    await browser.call('PATCH', `/api/listings/${first.id}/status`, { status: 'live' });
    expect(await words('zetor')).toMatchObject({ total: 2, listings: [{ id: first.id }, { id: second.id }] });
    // A view changes no words: still found, once.
    expect((await new Browser(t).call('GET', `/api/listings/${first.id}`)).statusCode).toBe(200);
    expect((await words('zetors')).listings.map((l) => l.id)).toEqual([first.id, second.id]);

    await browser.call('DELETE', `/api/listings/${second.id}`);
    expect(await words('proxima')).toMatchObject({ total: 0, listings: [] });
    expect(await db.query('select lexeme from listing_term where listing_id = $1', [second.id])).toEqual([]);
  });

  it('deletes a listing with its photos; it is then not found', async () => {
    const { browser } = await signedInPerson(t);
    const [photo] = await uploadPhotos(browser, 1);
    const listing = await post(browser, { images: [photo] });
    const file = `/media/images/${photo}/640.webp`;
    expect((await new Browser(t).call('GET', file)).statusCode).toBe(200);
    expect((await browser.call('DELETE', `/api/listings/${listing.id}`)).statusCode).toBe(200);
    const gone = await new Browser(t).call('GET', `/api/listings/${listing.id}`);
    expect([gone.statusCode, gone.json()]).toEqual([404, { success: false, error: 'Listing Not Found' }]);
    expect(await db.query('select id from image where listing_id = $1', [listing.id])).toHaveLength(0);
    await eventually(async () => expect((await new Browser(t).call('GET', file)).statusCode).toBe(404));
  });

  it('counts a view once per visitor per day, and never the seller’s own', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser);
    const a = new Browser(t, '10.77.0.1');
    const b = new Browser(t, '10.77.0.2');
    for (const visitor of [a, a, b, browser, a]) await visitor.call('GET', `/api/listings/${listing.id}`);
    const [row] = await db.query<{ views: number }>('select views from listing where id = $1', [listing.id]);
    expect(row?.views).toBe(2);
    expect(JSON.stringify(await db.query('select * from listing_view'))).not.toContain('10.77.0');
  });

  it('counts a visitor by address, whatever their browser says: an IPv6 network (/64) is one visitor', async () => {
    const { browser } = await signedInPerson(t);
    const views = async (listingId: string) =>
      (await db.query<{ views: number }>('select views from listing where id = $1', [listingId]))[0]?.views;
    const listing = await post(browser);
    const visitor = new Browser(t, '10.78.0.1');
    for (let i = 0; i < 25; i++) await visitor.call('GET', `/api/listings/${listing.id}`, undefined, { 'user-agent': `Browser/${i}` });
    expect(await views(listing.id)).toBe(1);
    // The order of popular follows the views, so it cannot be bought with User-Agents either.
    const popular = (await new Browser(t).call('GET', '/api/listings?sort=popular&q=5713')).json<{
      data: { listings: Array<{ id: string; views: number }> };
    }>().data.listings;
    expect(popular.find((card) => card.id === listing.id)?.views).toBe(1);

    const network = await post(browser);
    for (const ip of ['2001:db8:7:1::1', '2001:db8:7:1:ffff:ffff:ffff:fffe', '2001:0db8:0007:0001:0:0:0:9'])
      await new Browser(t, ip).call('GET', `/api/listings/${network.id}`);
    expect(await views(network.id)).toBe(1);
    await new Browser(t, '2001:db8:7:2::1').call('GET', `/api/listings/${network.id}`);
    expect(await views(network.id)).toBe(2);
  });

  it('counts a signed-in viewer once, from any address', async () => {
    const seller = await signedInPerson(t);
    const viewer = await signedInPerson(t, newPerson('Victor Viewer'));
    const listing = await post(seller.browser);
    const elsewhere = new Browser(t, '10.79.0.2');
    elsewhere.cookies = viewer.browser.cookies;
    await viewer.browser.call('GET', `/api/listings/${listing.id}`);
    await elsewhere.call('GET', `/api/listings/${listing.id}`);
    expect(await db.query('select views from listing where id = $1', [listing.id])).toEqual([{ views: 1 }]);
  });

  it.each([
    ['version 1', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
    ['version 7', '01932c07-209c-7ab0-9d3c-5ebe0ae5f0a1'],
    ['upper case', 'C232AB00-9414-41EC-B3C8-9F6BDECED846'],
  ])('answers “not found” for a well-formed id of no listing (%s), on save and unsave', async (_kind, id) => {
    const { browser } = await signedInPerson(t);
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await browser.call(method, '/api/listings/saved', { listingId: id });
      expect([response.statusCode, response.json()]).toEqual([404, { success: false, error: 'Listing Not Found' }]);
    }
  });

  it.each([
    'not-an-id',
    '------------------------------------',
    'c232ab00-9414-11ec-b3c8-9f6bdeced84',
    'g232ab00-9414-11ec-b3c8-9f6bdeced846',
  ])('refuses a malformed listing id (%s) on save and unsave', async (id) => {
    const { browser } = await signedInPerson(t);
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await browser.call(method, '/api/listings/saved', { listingId: id });
      expect([response.statusCode, response.json()]).toEqual([
        400,
        { success: false, error: 'listingId must be the id of a listing', fields: { listingId: 'listingId must be the id of a listing' } },
      ]);
    }
  });

  it('answers “not found” for an id of the right length that is not one, wherever a listing or seller is looked up', async () => {
    const dashes = '-'.repeat(36);
    for (const path of [`/api/listings/${dashes}`, `/api/users/${dashes}/listings`]) {
      const response = await new Browser(t).call('GET', path);
      expect(response.statusCode).toBe(404);
    }
  });

  it('saves and unsaves, counting the favourites truthfully', async () => {
    const seller = await signedInPerson(t);
    const buyer = await signedInPerson(t, newPerson('Betty Buyer'));
    const listing = await post(seller.browser);
    const own = await seller.browser.call('POST', '/api/listings/saved', { listingId: listing.id });
    expect([own.statusCode, own.json<{ error: string }>().error]).toEqual([400, 'You cannot save your own listing.']);
    expect((await buyer.browser.call('POST', '/api/listings/saved', { listingId: listing.id })).json()).toEqual({
      success: true,
      data: { saved: true, saves_count: 1 },
    });
    expect((await buyer.browser.call('POST', '/api/listings/saved', { listingId: listing.id })).json()).toEqual({
      success: true,
      data: { saved: true, saves_count: 1 },
    });
    const saved = (await buyer.browser.call('GET', '/api/listings/saved')).json<{ data: Array<{ listing_id: string; listing: Detail }> }>()
      .data;
    expect(saved.map((s) => s.listing_id)).toEqual([listing.id]);
    expect((await buyer.browser.call('GET', `/api/listings/${listing.id}`)).json()).toMatchObject({
      data: { saved: true, saves_count: 1 },
    });
    expect((await buyer.browser.call('DELETE', '/api/listings/saved', { listingId: listing.id })).json()).toEqual({
      success: true,
      data: { saved: false, saves_count: 0 },
    });
    const unknown = await buyer.browser.call('POST', '/api/listings/saved', { listingId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
  });

  it('limits a seller to twenty listings a day', async () => {
    const { browser } = await signedInPerson(t);
    const images = await uploadPhotos(browser, 1, { ready: false });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      // One photo per listing: the same photo cannot be on two listings, so each gets its own.
      const photo = i === 0 ? images : await uploadPhotos(browser, 1, { ready: false });
      statuses.push((await browser.call('POST', '/api/listings', await listingBody(browser, { images: photo }, 2))).statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('warns a seller a week before expiry, once, then expires the listing', async () => {
    const { browser, person } = await signedInPerson(t);
    const listing = await post(browser);
    await db.query(`update listing set expires_at = now() + interval '5 days' where id = $1`, [listing.id]);
    const lifecycle = t.app.get((await import('./listings-lifecycle.js')).ListingsLifecycle);
    await lifecycle.expire();
    await lifecycle.expire();
    await waitForJobs(db);
    const warnings = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === person.email && m.subject.includes('expires on'));
    expect(warnings).toHaveLength(1);
    // The renew link opens the profile's My Listings tab (its id is "listings").
    expect(warnings[0]?.text).toContain(`${t.config.publicUrl}/profile#listings`);
    await db.query(`update listing set expires_at = now() - interval '1 minute' where id = $1`, [listing.id]);
    await lifecycle.expire();
    expect(await db.query('select status from listing where id = $1', [listing.id])).toEqual([{ status: 'expired' }]);
    expect((await new Browser(t).call('GET', `/api/listings/${listing.id}`)).statusCode).toBe(404);
  });

  it('expires a listing past its expiry that was never warned (the job did not run for a week) in one run', async () => {
    const { browser } = await signedInPerson(t);
    const listing = await post(browser);
    await db.query(`update listing set expires_at = now() - interval '2 days' where id = $1`, [listing.id]);
    const lifecycle = t.app.get((await import('./listings-lifecycle.js')).ListingsLifecycle);
    await lifecycle.expire();
    expect(await db.query('select status from listing where id = $1', [listing.id])).toEqual([{ status: 'expired' }]);
  });

  it('exports the seller’s listings and saved listings, and forgets them when the account is deleted', async () => {
    const seller = await signedInPerson(t);
    const buyer = await signedInPerson(t, newPerson('Billy Buyer'));
    const listing = await post(seller.browser);
    await buyer.browser.call('POST', '/api/listings/saved', { listingId: listing.id });
    const exported = (await seller.browser.call('GET', '/api/profile/export')).json<{ data: { listings: Array<{ id: string }> } }>().data;
    expect(exported.listings.map((l) => l.id)).toEqual([listing.id]);
    const buyerExport = (await buyer.browser.call('GET', '/api/profile/export')).json<{
      data: { saved_listings: Array<{ listing_id: string }> };
    }>().data;
    expect(buyerExport.saved_listings.map((s) => s.listing_id)).toEqual([listing.id]);
    expect((await seller.browser.call('GET', '/api/profile')).json()).toMatchObject({ data: { listings_count: 1 } });

    await seller.browser.call('DELETE', '/api/profile', { password: seller.person.password });
    await waitForJobs(db);
    expect(await db.query('select id from listing where id = $1', [listing.id])).toHaveLength(0);
    expect(await db.query('select id from image where listing_id = $1', [listing.id])).toHaveLength(0);
    expect((await buyer.browser.call('GET', '/api/listings/saved')).json()).toEqual({ success: true, data: [] });
  });
});
