import { describe, expect, it } from '@jest/globals';
import {
  bannerText,
  counterText,
  interpretFeedbackFailure,
  interpretFeedbackResponse,
  toPayload,
  validateFeedbackForm,
} from './feedback-form';

const valid = {
  name: 'Jane Farmer',
  email: 'jane@example.co.uk',
  category: 'bug-report',
  rating: '2',
  message: 'The map does not load on my phone.',
};

describe('validateFeedbackForm', () => {
  it('accepts a complete form and sends the rating as a number, text trimmed', () => {
    expect(validateFeedbackForm(valid)).toEqual({});
    expect(toPayload({ ...valid, name: ' Jane Farmer ' })).toEqual({ ...valid, rating: 2 });
  });

  it('gives the spec texts for every empty field, joined with commas in one banner', () => {
    const errors = validateFeedbackForm({ name: '', email: '', category: '', rating: '', message: '' });
    expect(bannerText(errors)).toBe(
      'Name is required, Email is required, Please select a category, Please provide a rating, Message is required',
    );
  });

  it('checks the address pattern and the message length after trimming', () => {
    expect(validateFeedbackForm({ ...valid, email: 'jane@farm', message: '   short    ' })).toEqual({
      email: 'Please enter a valid email address',
      message: 'Message must be at least 10 characters',
    });
  });
});

describe('counterText', () => {
  it('shows the length out of 1000', () => {
    expect(counterText(42, 1000)).toBe('42/1000');
  });
});

describe('interpretFeedbackResponse', () => {
  it('reads success, field messages, an expired session and a server error', () => {
    expect(interpretFeedbackResponse(201, { success: true, data: {} })).toEqual({ kind: 'sent' });
    expect(
      interpretFeedbackResponse(400, { success: false, error: 'x', fields: { rating: 'Please provide a rating', other: 'y' } }),
    ).toEqual({
      kind: 'invalid',
      fields: { rating: 'Please provide a rating' },
    });
    expect(interpretFeedbackResponse(401, { success: false, error: 'Unauthorized' })).toEqual({
      kind: 'failed',
      message: 'Your session has expired. Please sign in again and try submitting your feedback.',
      retry: false,
    });
    expect(interpretFeedbackResponse(429, { success: false, error: 'Too much feedback from your connection.' })).toEqual({
      kind: 'failed',
      message: 'Too much feedback from your connection.',
      retry: false,
    });
    expect(interpretFeedbackResponse(502, 'Bad gateway')).toEqual({
      kind: 'failed',
      message: 'Failed to send feedback. Please try again.',
      retry: false,
    });
  });
});

describe('interpretFeedbackFailure', () => {
  it('offers Try Again with the timeout text after a timeout', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(interpretFeedbackFailure(timeout)).toEqual({
      kind: 'failed',
      message: 'The server is taking too long to respond. Please try again in a moment.',
      retry: true,
    });
  });

  it('offers Try Again with the connection text when the request never arrived', () => {
    expect(interpretFeedbackFailure(new TypeError('Failed to fetch'))).toEqual({
      kind: 'failed',
      message: 'Unable to connect to the server. Please check your internet connection and try again.',
      retry: true,
    });
  });
});
