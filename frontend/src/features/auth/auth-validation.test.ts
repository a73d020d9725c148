import { describe, expect, it } from '@jest/globals';
import {
  ACCOUNT_TEXTS,
  isCompleteCode,
  isRecoveryCode,
  normaliseCode,
  normaliseRecoveryCode,
  signUpPayload,
  validateNewPassword,
  validateSignIn,
  validateSignUp,
} from './auth-validation';

const valid = { name: 'Jane Farmer', email: 'Jane@Example.co.uk', location: '', password: 'hayfield42', confirmPassword: 'hayfield42' };

describe('validateSignUp', () => {
  it('accepts a complete form with no location', () => {
    expect(validateSignUp(valid)).toEqual({});
  });

  it('names each missing field in the spec and contract words', () => {
    expect(validateSignUp({ name: ' ', email: '', location: '', password: '', confirmPassword: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('checks the address pattern, the password length and the confirmation', () => {
    expect(validateSignUp({ ...valid, email: 'jane@' }).email).toBe('Please enter a valid email address');
    expect(validateSignUp({ ...valid, password: 'abc', confirmPassword: 'abc' }).password).toBe(
      'Password must be at least 6 characters long',
    );
    expect(validateSignUp({ ...valid, confirmPassword: 'hayfield43' }).confirmPassword).toBe(ACCOUNT_TEXTS.passwordsDoNotMatch);
  });

  it('builds the payload without the confirmation or an empty location', () => {
    expect(signUpPayload({ ...valid, name: ' Jane Farmer ' })).toEqual({
      name: 'Jane Farmer',
      email: 'jane@example.co.uk',
      password: 'hayfield42',
    });
    expect(signUpPayload({ ...valid, location: ' Taunton ' }).location).toBe('Taunton');
  });
});

describe('validateSignIn', () => {
  it('asks for both fields', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({ email: 'Email is required', password: 'Password is required' });
    expect(validateSignIn({ email: 'jane@example.co.uk', password: 'x' })).toEqual({});
  });
});

describe('validateNewPassword', () => {
  it('follows SPEC §5 "Reset password"', () => {
    expect(validateNewPassword({ password: '', confirmPassword: '' })).toEqual({ password: 'Please fill in all fields' });
    expect(validateNewPassword({ password: 'abc', confirmPassword: 'abc' }).password).toBe('Password must be at least 6 characters long');
    expect(validateNewPassword({ password: 'abcdef', confirmPassword: '' }).confirmPassword).toBe('Please fill in all fields');
    expect(validateNewPassword({ password: 'abcdef', confirmPassword: 'abcdeg' }).confirmPassword).toBe('Passwords do not match');
    expect(validateNewPassword({ password: 'abcdef', confirmPassword: 'abcdef' })).toEqual({});
  });
});

describe('two-factor codes', () => {
  it('keeps digits only, six at most', () => {
    expect(normaliseCode('12 3a45678')).toBe('123456');
    expect(isCompleteCode('12345')).toBe(false);
    expect(isCompleteCode('123456')).toBe(true);
  });

  it('accepts recovery codes with or without the hyphen', () => {
    expect(normaliseRecoveryCode(' abcde-12345 ')).toBe('ABCDE-12345');
    expect(isRecoveryCode('ABCDE-12345')).toBe(true);
    expect(isRecoveryCode('ABCDE12345')).toBe(true);
    expect(isRecoveryCode('ABCDE-1234')).toBe(false);
  });
});
