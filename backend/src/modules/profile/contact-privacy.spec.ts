import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { startConversation, sendMessage } from '../../testing/conversations.js';
import { postListing } from '../../testing/listings.js';
import { useTestApp } from '../../testing/test-context.js';
import { PHONE_REVEALS_PER_VIEWER } from './profile.service.js';

/** Every GET path of the committed contract (contract:check keeps it equal to what the code serves). */
const contract = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const readPaths = Object.entries(contract.paths)
  .filter(([, item]) => 'get' in item)
  .map(([path]) => path);

const PHONE = '07700 900123';
type Seller = Awaited<ReturnType<typeof signedInPerson>>;

/** Issue 23 §4: a seller's e-mail address and phone number reach nobody else but through "Show number". */
describe('contact details', () => {
  const { t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000' });
  let seller: Seller;
  let listingId: string;

  beforeAll(async () => {
    seller = await signedInPerson(t, newPerson('Seth Seller'));
    expect((await seller.browser.call('PUT', '/api/profile', { full_name: 'Seth Seller', phone: PHONE })).statusCode).toBe(200);
    listingId = (await postListing(seller.browser)).id;
  });

  it('are in no API answer another member or a visitor can read', async () => {
    const buyer = await signedInPerson(t, newPerson('Bea Buyer'));
    const conversation = await startConversation(buyer, listingId);
    await sendMessage(buyer, conversation.id, 'Is the tractor still for sale?');
    await sendMessage(seller, conversation.id, 'Yes, come and see it on Saturday.');
    const ids = [seller.id, listingId, conversation.id];
    const secrets = [seller.person.email, '900123', '7700900123'];
    let read = 0;
    for (const reader of [new Browser(t), buyer.browser]) {
      for (const path of readPaths) {
        for (const id of path.includes('{') ? ids : [undefined]) {
          const url = id ? path.replace(/\{[^}]+\}/g, id) : path;
          const answer = await reader.call('GET', `${url}${url === '/api/listings' ? '?q=tractor' : ''}`);
          if (answer.statusCode === 200) read += 1;
          for (const secret of secrets) expect({ url, leaked: answer.body.includes(secret) }).toEqual({ url, leaked: false });
        }
      }
    }
    // The walk reached the answers that are about the seller: profile, listing, listings, conversation.
    expect(read).toBeGreaterThan(10);
  });

  it('show the phone number only to a signed-in member with a confirmed e-mail who asks', async () => {
    const profile = await new Browser(t).call('GET', `/api/profile/public/${seller.id}`);
    expect(profile.json()).toMatchObject({ data: { phone_available: true } });
    const visitor = await new Browser(t).call('POST', `/api/profile/public/${seller.id}/phone`, {});
    expect([visitor.statusCode, visitor.json()]).toEqual([401, { success: false, error: 'Please sign in to see the phone number.' }]);

    const unconfirmed = new Browser(t);
    const person = newPerson('Una Unconfirmed');
    await unconfirmed.call('POST', '/api/auth/signup', { name: person.name, email: person.email, password: person.password });
    await unconfirmed.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
    const refused = await unconfirmed.call('POST', `/api/profile/public/${seller.id}/phone`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toMatch(/verify your email/);

    const member = await signedInPerson(t, newPerson('Mo Member'));
    const shown = await member.browser.call('POST', `/api/profile/public/${seller.id}/phone`, {});
    expect([shown.statusCode, shown.json(), shown.headers['cache-control']]).toEqual([
      200,
      { success: true, data: { phone: PHONE } },
      'no-store',
    ]);
  });

  it('are refused past a day’s allowance of different numbers per member, so they cannot be harvested; the same one again is free', async () => {
    const member = await signedInPerson(t, newPerson('Harvey Harvester'));
    const reveal = (id: string) => member.browser.call('POST', `/api/profile/public/${id}/phone`, {});
    // Pressing "Show number" again on the same seller (a reload) does not use up the allowance.
    for (let i = 0; i < PHONE_REVEALS_PER_VIEWER.limit + 2; i += 1) expect((await reveal(seller.id)).statusCode).toBe(200);
    const others: string[] = [];
    for (let i = 1; i <= PHONE_REVEALS_PER_VIEWER.limit; i += 1) {
      const other = await signedInPerson(t, newPerson(`Seller Number${i}`));
      expect(
        (await other.browser.call('PUT', '/api/profile', { full_name: `Seller Number${i}`, phone: `07700 9001${10 + i}` })).statusCode,
      ).toBe(200);
      others.push(other.id);
    }
    for (const id of others.slice(0, -1)) expect((await reveal(id)).statusCode).toBe(200);
    const refused = await reveal(others.at(-1)!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ error: string }>().error).toMatch(
      /^You have seen 10 phone numbers today\. Please wait .+, or send a message instead\.$/,
    );
    expect((await reveal(others.at(-1)!)).statusCode).toBe(429);
    expect((await reveal(seller.id)).statusCode).toBe(200);
    // Another member is not affected.
    const other = await signedInPerson(t);
    expect((await other.browser.call('POST', `/api/profile/public/${seller.id}/phone`, {})).statusCode).toBe(200);
  });

  it('stay hidden when the seller turns the number off, or has none', async () => {
    const owner = await signedInPerson(t, newPerson('Priya Private'));
    await owner.browser.call('PUT', '/api/profile', { full_name: 'Priya Private', phone: '+44 1823 555123' });
    const privacy = {
      profile_visible: true,
      contact_visible: false,
      listings_visible: true,
      email_notifications: true,
      push_notifications: true,
    };
    await owner.browser.call('PUT', '/api/profile/privacy', { privacy_settings: privacy });
    const member = await signedInPerson(t);
    expect((await member.browser.call('GET', `/api/profile/public/${owner.id}`)).json()).toMatchObject({
      data: { phone_available: false },
    });
    const hidden = await member.browser.call('POST', `/api/profile/public/${owner.id}/phone`, {});
    expect([hidden.statusCode, hidden.json()]).toEqual([404, { success: false, error: 'This member does not show a phone number' }]);
    const none = await member.browser.call('POST', `/api/profile/public/${member.id}/phone`, {});
    expect(none.statusCode).toBe(404);
  });

  it('refuses a phone number that is not a UK number, keeping the profile', async () => {
    for (const phone of ['12345', '+1 212 555 0100', '07700 90012', 'call me']) {
      const refused = await seller.browser.call('PUT', '/api/profile', { full_name: 'Seth Seller', phone });
      expect([phone, refused.statusCode, refused.json()]).toEqual([
        phone,
        400,
        expect.objectContaining({ fields: { phone: 'Phone must be a UK number, like 01823 555123 or 07700 900123' } }),
      ]);
    }
    expect((await seller.browser.call('GET', '/api/profile')).json()).toMatchObject({ data: { phone: PHONE } });
  });
});
