import { describe, expect, it } from '@jest/globals';
import {
  controlCharactersToSpaces,
  EMAIL_PATTERN,
  hasControlCharacters,
  textFieldError,
  textFieldPattern,
  trimText,
} from './text-rules.js';

describe('EMAIL_PATTERN', () => {
  it.each(['jane@example.co.uk', 'j.farmer+hay@mail.example.com', "o'neill@farm.ie", 'a@b.io', 'FARM@EXAMPLE.COM'])(
    'accepts %s',
    (address) => {
      expect(EMAIL_PATTERN.test(address)).toBe(true);
    },
  );

  it.each([
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    'jane doe@example.com',
    'jane..farmer@example.co.uk',
    '.jane@example.com',
    'jane.@example.com',
    'jane@-example.com',
    'jane@example.c',
    'jane@exa_mple.com',
  ])('refuses %s', (address) => {
    expect(EMAIL_PATTERN.test(address)).toBe(false);
  });
});

describe('the control-character rule', () => {
  it.each([
    ['a bell', 'ring\u0007', true, true],
    ['NUL', 'a\u0000b', true, true],
    ['an escape sequence', 'Hay \u001b[31mURGENT', true, true],
    ['DEL', 'x\u007f', true, true],
    ['a C1 control (NEL)', 'next\u0085line', true, true],
    ['a line feed', 'one\ntwo', false, true],
    ['a carriage return', 'one\r\ntwo', false, true],
    ['a tab', 'hay\tbales', false, true],
    ['a line separator', 'one\u2028two', false, true],
    ['a right-to-left override', 'Trusted \u202erelaed', false, true],
    ['a direction isolate', 'Farm \u2067name\u2069', false, true],
    ['a right-to-left mark (implicit, allowed)', 'مزرعة\u200f 12', false, false],
    ['plain text with accents', 'Café crème, £20 a bale', false, false],
  ])('%s: refused in several lines %s, on one line %s', (_what, value, multiLine, singleLine) => {
    expect(hasControlCharacters(value, 'multiLine')).toBe(multiLine);
    expect(hasControlCharacters(value, 'singleLine')).toBe(singleLine);
  });

  it('makes text from elsewhere one line, each run of control characters one space', () => {
    expect(controlCharactersToSpaces('Jane\r\n\tFarmer\u0007\u0085Smith')).toBe('Jane Farmer Smith');
  });
});

describe('textFieldError', () => {
  const rule = { label: 'Title', maxLength: 10, minLength: 3, singleLine: true };

  it.each([
    [undefined, 'Title is required'],
    ['', 'Title is required'],
    [7, 'Title must be text'],
    [['a'], 'Title must be text'],
    ['one\ntwo', 'Title must be on one line'],
    ['tab\u0001', 'Title must not contain control characters'],
    ['x'.repeat(11), 'Title must be at most 10 characters'],
    ['ab', 'Title must be at least 3 characters'],
  ])('reports %j as "%s"', (value, message) => {
    expect(textFieldError(rule, value)).toBe(message);
  });

  it('lets an optional field be empty', () => {
    expect(textFieldError({ ...rule, optional: true }, '')).toBeUndefined();
  });
});

describe('textFieldPattern', () => {
  const rules = {
    'single line, required': { label: 'Title', maxLength: 100, singleLine: true },
    'single line, optional': { label: 'Phone', maxLength: 100, singleLine: true, optional: true },
    'several lines, required': { label: 'Description', maxLength: 100 },
  };
  const samples = [
    'Hay',
    '  Hay  ',
    '',
    '   ',
    '\u00a0\ufeff',
    'one\ntwo',
    'one\u2028two',
    'tab\there',
    'bell\u0007',
    'del\u007f',
    'nel\u0085',
    'é ü 中',
  ];

  // What the contract tells a client generator agrees with what the server refuses (length aside).
  it.each(Object.entries(rules))('accepts in the contract what the API accepts: %s', (_kind, rule) => {
    const pattern = new RegExp(textFieldPattern(rule));
    for (const sample of samples) {
      expect([sample, pattern.test(sample)]).toEqual([sample, textFieldError(rule, trimText(sample)) === undefined]);
    }
  });
});
