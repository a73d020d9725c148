import { describe, expect, it } from '@jest/globals';
import { safetyReasons } from './message-safety.js';

describe('the safety notice on a message', () => {
  it.each([
    ['Sort code 20-45-77 account 41234567, deposit please', 'bank-details'],
    ['pay into 204577 / 41234567 and I will hold them', 'bank-details'],
    ['Acc 41234567, sort 20 45 77', 'bank-details'],
    ['my sort code is 20-45-77', 'bank-details'],
    ['£200 deposit to paypal.me/farmerjoe secures the ewes', 'payment-link'],
    ['https://www.paypal.com/paypalme/farmerjoe', 'payment-link'],
    ['Send it via https://monzo.me/jdoe/200', 'payment-link'],
    ['use buy.stripe.com/abc123 to reserve', 'payment-link'],
    ['Easier on WhatsApp, message me there', 'off-platform'],
    ['text me on 07700 900123', 'off-platform'],
    ['ring 07700900123 after six', 'off-platform'],
    ['call +44 7700 900123', 'off-platform'],
    ['Office is 01823 555123', 'off-platform'],
    ['email me at joe.bloggs@example.co.uk', 'off-platform'],
    ['Contact me directly, quicker', 'off-platform'],
  ])('shows for %j (%s)', (text, reason) => {
    expect(safetyReasons(text)).toContain(reason);
  });

  it.each([
    'Is the tractor still available? Price £12,345,678 seems high',
    'I can collect on 12-05-24 or 13-05-24',
    'Ear tags UK123456 700123 and UK 123456 700124',
    'Ear tag UK 012345 600123 on the heifer',
    'The farm is at TA1 4AB, postcode EX16 9PL',
    'CPH 12/345/6789 is on the movement licence',
    'Serial number 12345678, first registered 2019',
    'John Deere 6155R, 4,321 hours, 2019 model 20 45 77 is its parts code',
    'Would you take 4500 for the lot of 120 ewes?',
    'Price is £1,250.00 plus VAT, 06155 hours',
    'Lot 204577 at the mart, 150 head',
    'The reference on the invoice is 2045-7712',
    'Can I see them on Saturday? I will bring the trailer.',
  ])('stays quiet for %j', (text) => {
    expect(safetyReasons(text)).toEqual([]);
  });
});
