import { describe, expect, it } from '@jest/globals';
import { EMAIL_PATTERN, textFieldError, textFieldPattern, trimText } from './text-rules.js';

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
