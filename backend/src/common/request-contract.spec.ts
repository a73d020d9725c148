import { beforeAll, describe, expect, it } from '@jest/globals';
import { Browser, signedInPerson } from '../testing/accounts.js';
import { useTestApp } from '../testing/test-context.js';

interface Refusal {
  success: false;
  error: string;
  fields?: Record<string, string>;
}

/** What the server refuses is what openapi.yaml says it refuses (issue 17 §5). */
describe('requests outside the contract', () => {
  let browser: Browser;

  const { t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000' });
  beforeAll(async () => {
    ({ browser } = await signedInPerson(t));
  });

  it('refuses null in a profile field the contract types as text, and keeps the profile', async () => {
    const saved = await browser.call('PUT', '/api/profile', { full_name: 'Jane Farmer', bio: 'Dairy on the Levels' });
    expect(saved.statusCode).toBe(200);
    const refused = await browser.call('PUT', '/api/profile', { full_name: 'Jane Farmer', bio: null });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Refusal>()).toMatchObject({ error: 'Bio must be text', fields: { bio: 'Bio must be text' } });
    const profile = await browser.call('GET', '/api/profile');
    expect(profile.json<{ data: { bio: string | null } }>().data.bio).toBe('Dairy on the Levels');
    // An empty string is how the form clears it.
    const cleared = await browser.call('PUT', '/api/profile', { full_name: 'Jane Farmer', bio: '' });
    expect(cleared.json<{ data: { bio: string | null } }>().data.bio).toBeNull();
  });

  it('keeps a required field’s own message for null, next to the null checks of others', async () => {
    const refused = await browser.call('PUT', '/api/profile', { full_name: null, phone: null });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Refusal>().fields).toEqual({ full_name: 'Full name is required', phone: 'Phone must be text' });
  });

  it('refuses null in any body whose contract does not allow it, not one field', async () => {
    const listing = await browser.call('POST', '/api/listings', {
      type: 'sale',
      category: 'equipment',
      title: 'Massey Ferguson 5713 SL',
      description: 'Well kept tractor, always garaged, full service history with the main dealer.',
      price: 38500,
      location: 'Taunton',
      place_id: null,
      attributes: null,
      images: [],
    });
    expect(listing.statusCode).toBe(400);
    expect(listing.json<Refusal>().fields).toMatchObject({ place_id: 'place_id must be text', attributes: 'attributes must not be null' });
  });

  it('refuses a query parameter given twice by its name, on search and elsewhere', async () => {
    for (const [url, field] of [
      ['/api/listings?q=hay&q=straw', 'q'],
      ['/api/listings/featured?limit=1&limit=2', 'limit'],
      ['/api/places?q=Taunton&q=Wells', 'q'],
    ]) {
      const response = await new Browser(t).call('GET', url);
      expect(response.statusCode).toBe(400);
      expect(response.json<Refusal>()).toMatchObject({
        error: `${field} must be given once`,
        fields: { [field]: `${field} must be given once` },
      });
    }
  });

  it('says q is required when a place search has none', async () => {
    for (const url of ['/api/places', '/api/places?q=']) {
      const response = await new Browser(t).call('GET', url);
      expect(response.statusCode).toBe(400);
      expect(response.json<Refusal>()).toMatchObject({ error: 'q is required', fields: { q: 'q is required' } });
    }
  });

  it('answers a malformed or overlong path id in the envelope, as the contract lists', async () => {
    const overlong = await new Browser(t).call('GET', `/api/listings/${'x'.repeat(101)}`);
    expect([overlong.statusCode, overlong.json<Refusal>()]).toEqual([
      414,
      { success: false, error: 'A part of the path is longer than 100 characters.' },
    ]);
    const malformed = await new Browser(t).call('GET', '/api/listings/%E0%A4%A');
    expect([malformed.statusCode, malformed.json<Refusal>()]).toEqual([
      400,
      { success: false, error: 'A part of the path is not properly percent-encoded.' },
    ]);
  });
});
