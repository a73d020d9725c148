import { describe, expect, it } from '@jest/globals';
import { companyNumberError, ukPhoneError, vatNumberError } from './trust.js';

describe('a UK phone number', () => {
  it.each([
    '01823 555123',
    '0117 496 0123',
    '020 7946 0958',
    '07700 900123',
    '+44 7700 900123',
    '+44 (0)1823 555123',
    '0044 20 7946 0958',
    '0800-123-4567',
  ])('accepts %s', (phone) => expect(ukPhoneError(phone)).toBeUndefined());
  it.each(['12345', '07700 90012', '07700 9001234', '+1 212 555 0100', '00 1823 555123', '04 1234 5678', 'call me'])(
    'refuses %s',
    (phone) => expect(ukPhoneError(phone)).toBe('Phone must be a UK number, like 01823 555123 or 07700 900123'),
  );
});

describe('a Companies House number', () => {
  it.each(['01234567', 'SC123456', 'NI 012345', 'oc301234'])('accepts %s', (number) => expect(companyNumberError(number)).toBeUndefined());
  it.each(['1234567', '123456789', 'S1234567', 'SC12345X', '12-34-56-78'])('refuses %s', (number) =>
    expect(companyNumberError(number)).toMatch(/^Companies House number must be 8 characters/),
  );
});

describe('a UK VAT number', () => {
  // The first seven digits weighted 8…2: 999 9999 → 315, 123 4567 → 112.
  it.each([
    ['GB 999 9999 73', 'modulus 97: 315 + 73 = 388 = 4 × 97'],
    ['999999973', 'modulus 97, written without GB'],
    ['GB999999973001', 'a branch: twelve digits'],
    ['GB 123 4567 82', 'modulus 97: 112 + 82 = 194 = 2 × 97'],
    ['GB 123 4567 27', '9755: 112 + 27 + 55 = 194 = 2 × 97'],
  ])('accepts %s (%s)', (number) => expect(vatNumberError(number)).toBeUndefined());
  it.each(['GB 999 9999 74', 'GB 123 4567 89'])('refuses %s whose check digits do not match', (number) =>
    expect(vatNumberError(number)).toBe('VAT number is not valid: please check the digits'),
  );
  it.each(['GB 12345678', 'FR 123456789', 'GB12345678901', 'GB ABC DEFG HI'])('refuses %s, not in the UK form', (number) =>
    expect(vatNumberError(number)).toBe('VAT number must be GB and 9 digits, like GB 123 4567 89'),
  );
});
