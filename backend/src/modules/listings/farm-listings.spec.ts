import { beforeAll, describe, expect, it } from '@jest/globals';
import { addDays } from '../../contracts/field-formats.js';
import { todayInUk } from '../../contracts/listings.js';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { uploadPhotos } from '../../testing/images.js';
import { insertListing, LISTING_BODIES, listingBody, postListing } from '../../testing/listings.js';
import { useTestApp } from '../../testing/test-context.js';

interface Detail {
  id: string;
  attributes: Record<string, unknown>;
}

/** Twelve cattle with their holding number, tags and TB details, as a seller posts them. */
const CATTLE = {
  ...LISTING_BODIES.livestock,
  attributes: {
    ...LISTING_BODIES.livestock.attributes,
    species: 'cattle',
    head_count: 3,
    cph: '12 345 6789',
    herd_mark: '284205',
    ear_tags: 'UK 284205 600015\nuk284205700016, UK 284205 100017',
    tb_status: 'otf',
    pre_movement_test: todayInUk(),
  },
};

describe('farm-grade listings', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', SEARCH_CACHE_MS: '0' });
  let seller: Awaited<ReturnType<typeof signedInPerson>>;
  /** Photos of the refused listings: never attached, so every refusal can name them. */
  let photos: string[] | undefined;
  beforeAll(async () => {
    seller = await signedInPerson(t);
  });

  const visitor = () => new Browser(t);
  const search = async (query: string) => {
    const response = await visitor().call('GET', `/api/listings?${query}`);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ data: { listings: Array<{ id: string }> } }>().data.listings.map((card) => card.id);
  };

  /** An answer without its ids: a random id may hold the digits looked for (one did: "…-89bb26c76789"). */
  const withoutIds = (answer: string) => answer.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');

  it('keeps the full holding number, ear tags and serial from everyone but the seller', async () => {
    const cattle = await postListing<Detail>(seller.browser, CATTLE);
    const plough = await postListing<Detail>(seller.browser, { attributes: { make: 'Kverneland', serial: 'KV-LB100-0045127' } });
    expect(cattle.attributes).toMatchObject({ cph: '12/345/6789', ear_tags: 'UK 284205 600015\nUK 284205 700016\nUK 284205 100017' });
    // The profile says a holding number was declared (never "verified"), without showing it.
    const profile = await visitor().call('GET', `/api/profile/public/${seller.id}`);
    expect(profile.json<{ data: { cph_declared: boolean } }>().data.cph_declared).toBe(true);
    expect(withoutIds(profile.body)).not.toContain('6789');

    const other = await signedInPerson(t);
    for (const who of [visitor(), other.browser]) {
      const shown = (await who.call('GET', `/api/listings/${cattle.id}`)).json<{ data: Detail }>().data;
      expect(shown.attributes).toMatchObject({ cph: '12/345/····', ear_tags: 'on file', tb_status: 'otf', herd_mark: '284205' });
      const machine = await who.call('GET', `/api/listings/${plough.id}`);
      expect(machine.json<{ data: Detail }>().data.attributes).toMatchObject({ make: 'Kverneland', serial: 'on file' });
      for (const answer of [JSON.stringify(shown), machine.body]) {
        expect(withoutIds(answer)).not.toMatch(/6789|700016|0045127/);
      }
    }
    expect((await seller.browser.call('GET', `/api/listings/${cattle.id}`)).json<{ data: Detail }>().data.attributes['cph']).toBe(
      '12/345/6789',
    );
  });

  it.each([
    [
      'attributes.ear_tags',
      'Ear tags: each tag must be a UK cattle tag like UK 284205 700016 with its check digit right (“UK 284205 500016” is not)',
      { ear_tags: 'UK 284205 500016' },
    ],
    [
      'attributes.ear_tags',
      'Ear tags: at most one per head (4 tags for 3 head)',
      { ear_tags: 'UK 284205 600015, UK 284205 700016, UK 284205 100017, UK 123450 600001' },
    ],
    ['attributes.ear_tags', 'Ear tags applies to cattle only', { species: 'sheep' }],
    ['attributes.cph', 'Holding number (CPH) must look like 12/345/6789 (county/parish/holding)', { cph: '12/345' }],
    ['attributes.pre_movement_test', 'Pre-movement TB test must not be in the future', { pre_movement_test: addDays(todayInUk(), 2) }],
    [
      'attributes.tb_status',
      'Herd TB status must be one of: Officially TB free, OTF withdrawn, OTF suspended, Not applicable',
      { tb_status: 'clear' },
    ],
  ])('refuses a bad %s with "%s"', async (field, message, change) => {
    photos ??= await uploadPhotos(seller.browser, 1, { ready: false });
    const body = { ...CATTLE, attributes: { ...CATTLE.attributes, ...change }, images: photos };
    const response = await seller.browser.call('POST', '/api/listings', await listingBody(seller.browser, body));
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
  });

  it('filters livestock by species, TB status, pedigree, health scheme, organic and a pre-movement test valid on a date', async () => {
    const tested = (daysAgo: number) => addDays(todayInUk(), -daysAgo);
    const stock = (attributes: Record<string, unknown>) =>
      insertListing(db, { seller: seller.id, title: 'Angus heifers', category: 3, attributes: { species: 'cattle', ...attributes } });
    const free = await stock({ tb_status: 'otf', pre_movement_test: tested(10), pedigree: true, bvd: 'accredited', organic: true });
    const lapsed = await stock({ tb_status: 'otf', pre_movement_test: tested(70), pedigree: false });
    const suspended = await stock({ tb_status: 'otf-suspended', pre_movement_test: tested(5) });
    const ewes = await stock({ species: 'sheep', organic: true });

    expect(await search('category=livestock&tb_status=otf')).toEqual(expect.arrayContaining([free, lapsed]));
    expect(await search('category=livestock&tb_status=otf')).not.toContain(suspended);
    expect(await search(`category=livestock&pre_movement_test_valid_on=${todayInUk()}`)).toEqual(expect.arrayContaining([free, suspended]));
    expect(await search(`category=livestock&pre_movement_test_valid_on=${todayInUk()}`)).not.toContain(lapsed);
    // Tested 10 days ago: still valid 50 days on, not 51.
    expect(await search(`category=livestock&pre_movement_test_valid_on=${addDays(todayInUk(), 50)}`)).toContain(free);
    expect(await search(`category=livestock&pre_movement_test_valid_on=${addDays(todayInUk(), 51)}`)).not.toContain(free);
    expect(await search('category=livestock&pedigree=yes')).toEqual([free]);
    expect(await search('category=livestock&pedigree=no')).toEqual([lapsed]);
    expect(await search('category=livestock&bvd=accredited')).toEqual([free]);
    expect(await search('category=livestock&species=sheep')).toEqual([ewes]);
    expect((await search('category=livestock&organic=yes')).sort()).toEqual([free, ewes].sort());
  });

  it('refuses a filter value it does not know, by name', async () => {
    for (const [query, field, message] of [
      ['tb_status=clear', 'tb_status', 'tb_status must be one of: otf, otf-withdrawn, otf-suspended, not-applicable'],
      ['organic=true', 'organic', 'organic must be yes or no'],
      ['pre_movement_test_valid_on=tomorrow', 'pre_movement_test_valid_on', 'pre_movement_test_valid_on must be a date (YYYY-MM-DD)'],
    ]) {
      const response = await visitor().call('GET', `/api/listings?category=livestock&${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field as string]).toBe(message);
    }
  });

  it('lists the makes of machinery in use, most listed first, and filters by one', async () => {
    const machine = (make: string) => insertListing(db, { seller: seller.id, title: `${make} tractor`, category: 2, attributes: { make } });
    const kubotas = [await machine('Kubota'), await machine('Kubota')];
    await machine('Zetor');
    const makes = (await visitor().call('GET', '/api/listings/makes')).json<{ data: { makes: string[] } }>().data.makes;
    expect(makes.indexOf('Kubota')).toBeGreaterThanOrEqual(0);
    expect(makes.indexOf('Kubota')).toBeLessThan(makes.indexOf('Zetor'));
    expect((await search('category=equipment&make=Kubota')).sort()).toEqual(kubotas.sort());
  });

  it('takes several land designations, once each, stores them in the declared order, shows them, and finds land holding any asked', async () => {
    photos ??= await uploadPhotos(seller.browser, 1, { ready: false });
    const land = (designations: unknown) => ({ ...LISTING_BODIES.land, attributes: { ...LISTING_BODIES.land.attributes, designations } });
    const refused = async (designations: unknown) => {
      const response = await seller.browser.call(
        'POST',
        '/api/listings',
        await listingBody(seller.browser, { ...land(designations), images: photos }),
      );
      expect(response.statusCode).toBe(400);
      return response.json<{ fields: Record<string, string> }>().fields['attributes.designations'];
    };
    expect(await refused(['nvz', 'sssi', 'nvz'])).toBe('Designations: each once');
    expect(await refused(['sssi', 'ramsar'])).toBe(
      'Designations must be a list of: Site of Special Scientific Interest (SSSI), Nitrate Vulnerable Zone (NVZ), National Park, National Landscape (AONB), Green Belt, Scheduled monument on the land',
    );
    expect(await refused([true])).toMatch(/^Designations must be a list of: /);

    // As a form sends them (commas) or as a list; kept in the declared order, so equal choices are stored alike.
    const posted = await postListing<Detail>(seller.browser, land('nvz, sssi'));
    expect(posted.attributes['designations']).toEqual(['sssi', 'nvz']);
    const shown = (await visitor().call('GET', `/api/listings/${posted.id}`)).json<{ data: Detail }>().data;
    expect(shown.attributes['designations']).toEqual(['sssi', 'nvz']);
    const green = await insertListing(db, {
      seller: seller.id,
      title: 'Grazing',
      category: 1,
      attributes: { designations: ['green-belt'] },
    });
    const none = await insertListing(db, { seller: seller.id, title: 'Arable', category: 1, attributes: {} });

    expect(await search('category=land&designations=national-park,sssi')).toEqual([posted.id]);
    expect((await search('category=land&designations=green-belt,nvz')).sort()).toEqual([posted.id, green].sort());
    expect(await search('category=land&designations=green-belt')).not.toContain(none);
    const unknown = await visitor().call('GET', '/api/listings?category=land&designations=sssi,ramsar');
    expect([unknown.statusCode, unknown.json<{ fields: Record<string, string> }>().fields['designations']]).toEqual([
      400,
      'designations must be one or more of, separated by commas: sssi, nvz, national-park, national-landscape, green-belt, scheduled-monument',
    ]);
  });

  it('finds livestock in any of the health schemes asked for', async () => {
    const herd = (schemes: string[]) =>
      insertListing(db, {
        seller: seller.id,
        title: 'Limousin cows',
        category: 3,
        attributes: { species: 'cattle', health_schemes: schemes },
      });
    const ibr = await herd(['bvd', 'ibr']);
    const lepto = await herd(['lepto']);
    expect(await search('category=livestock&health_schemes=ibr')).toEqual([ibr]);
    expect((await search('category=livestock&health_schemes=lepto,ibr')).sort()).toEqual([ibr, lepto].sort());
  });

  describe('prices per head', () => {
    /** Lleyn ewes priced as sellers price them: a lot in total with its head count, per head, or in total with no count. */
    const lot = (title: string, pounds: number, priceUnit: 'total' | 'per-head', headCount?: number) =>
      insertListing(db, {
        seller: seller.id,
        title: `Lleyn ewes ${title}`,
        category: 3,
        pricePence: pounds * 100,
        priceUnit,
        attributes: { species: 'sheep', ...(headCount ? { head_count: headCount } : {}) },
      });
    let lots: { a125: string; b110: string; c120: string; uncounted: string };
    beforeAll(async () => {
      lots = {
        a125: await lot('forty at £5,000 the lot', 5_000, 'total', 40),
        b110: await lot('at £110 a head', 110, 'per-head', 50),
        c120: await lot('twenty at £2,400 the lot', 2_400, 'total', 20),
        uncounted: await lot('a lot at £900, not counted', 900, 'total'),
      };
    });

    const allPages = async (query: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await visitor().call('GET', `/api/listings?${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.statusCode).toBe(200);
        const page = response.json<{ data: { listings: Array<{ id: string }>; next_cursor: string | null } }>().data;
        ids.push(...page.listings.map((card) => card.id));
        cursor = page.next_cursor;
      } while (cursor);
      return ids;
    };

    it('sorts livestock by price per head, lowest first, a lot priced in total by its head count, page by page; lots without one last', async () => {
      expect(await allPages('q=lleyn&category=livestock&sort=price-per-head')).toEqual([lots.b110, lots.c120, lots.a125, lots.uncounted]);
      // Without words too (the sort's index walked), the same order among the category's listings.
      const all = await allPages('category=livestock&species=sheep&sort=price-per-head');
      expect(all.filter((id) => Object.values(lots).includes(id))).toEqual([lots.b110, lots.c120, lots.a125, lots.uncounted]);
      const refused = await visitor().call('GET', '/api/listings?category=equipment&sort=price-per-head');
      expect([refused.statusCode, refused.json<{ fields: Record<string, string> }>().fields]).toEqual([
        400,
        { sort: 'sort=price-per-head needs category=livestock' },
      ]);
    });

    it('gives each card and listing page its price a head: a lot’s total over its head count, or the price per head', async () => {
      const response = await visitor().call('GET', '/api/listings?q=lleyn&category=livestock&sort=price-per-head');
      const cards = response.json<{ data: { listings: Array<{ id: string; price: number; price_per_head: number | null }> } }>().data
        .listings;
      expect(cards.map((card) => [card.id, card.price, card.price_per_head])).toEqual([
        [lots.b110, 110, 110],
        [lots.c120, 2_400, 120],
        [lots.a125, 5_000, 125],
        [lots.uncounted, 900, null],
      ]);
      for (const card of cards) {
        const detail = await visitor().call('GET', `/api/listings/${card.id}`);
        expect([card.id, detail.json<{ data: { price_per_head: number | null } }>().data.price_per_head]).toEqual([
          card.id,
          card.price_per_head,
        ]);
      }
    });

    it('compares a price in a unit with listings priced in it, or converted where their head count says how; never across units', async () => {
      const found = async (query: string) => (await search(`q=lleyn&category=livestock&${query}`)).sort();
      // Up to £120 a head: £110 a head, and 20 for £2,400; not 40 for £5,000 (£125 a head), nor a lot of unknown size.
      expect(await found('max_price=120&price_unit=per-head')).toEqual([lots.b110, lots.c120].sort());
      // Up to £5,000 in all: 50 at £110 a head is £5,500.
      expect(await found('max_price=5000&price_unit=total')).toEqual([lots.a125, lots.c120, lots.uncounted].sort());
      expect(await found('min_price=121&price_unit=per-head')).toEqual([lots.a125]);
      // No unit: each listing's price as it stands, as before.
      expect(await found('max_price=120')).toEqual([lots.b110]);
      const refused = await visitor().call('GET', '/api/listings?max_price=120&price_unit=per-cow');
      expect(refused.json<{ fields: Record<string, string> }>().fields['price_unit']).toMatch(
        /^price_unit must be one of: total, per-head, /,
      );
    });
  });
});
