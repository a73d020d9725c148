import { describe, expect, it } from '@jest/globals';
import { insertListing } from '../testing/listings.js';
import { useTestDatabase } from '../testing/test-context.js';
import { LAND_DESIGNATIONS_UP } from './Migration20261126134020_land_designations.js';

describe('migration: land designations', () => {
  const db = useTestDatabase({ queueSchema: false });

  it('keeps every yes of the old SSSI and NVZ fields as a designation, drops the noes, and leaves other fields alone', async () => {
    const [seller] = await db.query<{ id: string }>(
      `insert into app_user (id, email, full_name, provider, role, profile_visible, contact_visible, listings_visible,
         email_notifications, push_notifications, created_at, updated_at, last_active_at)
       values (gen_random_uuid(), 'land@example.com', 'Land Seller', 'password', 'user', true, true, true, true, true, now(), now(), now())
       returning id`,
    );
    const land = (attributes: Record<string, unknown>) =>
      insertListing(db, { seller: seller!.id, title: 'Grazing', category: 1, attributes });
    const both = await land({ acres: 12, sssi: true, nvz: true });
    const nvz = await land({ sssi: false, nvz: true });
    const neither = await land({ acres: 3, sssi: false, nvz: false });
    const untouched = await land({ acres: 40, tenure: 'freehold' });
    await db.query(LAND_DESIGNATIONS_UP);
    const attributes = async (id: string) =>
      (await db.query<{ attributes: Record<string, unknown> }>('select attributes from listing where id = $1', [id]))[0]?.attributes;
    expect(await attributes(both)).toEqual({ acres: 12, designations: ['sssi', 'nvz'] });
    expect(await attributes(nvz)).toEqual({ designations: ['nvz'] });
    expect(await attributes(neither)).toEqual({ acres: 3 });
    expect(await attributes(untouched)).toEqual({ acres: 40, tenure: 'freehold' });
  });
});
