import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal } from '../../lib/api-result';

export type ReviewEligibility = components['schemas']['ReviewEligibility'];
export type ReviewView = components['schemas']['ReviewView'];

const FAILED = 'Failed to save the review';

export const loadEligibility = (conversationId: string) =>
  settle<ReviewEligibility>(
    api.GET('/api/reviews/eligibility', { params: { query: { conversation_id: conversationId } }, signal: timeoutSignal() }),
    'Failed to load whether you can review',
  );

export const writeReview = (conversationId: string, stars: number, text: string) =>
  settle<ReviewView>(api.POST('/api/reviews', { body: { conversation_id: conversationId, stars, text }, signal: timeoutSignal() }), FAILED);

export const editReview = (id: string, stars: number, text: string) =>
  settle<ReviewView>(api.PATCH('/api/reviews/{id}', { params: { path: { id } }, body: { stars, text }, signal: timeoutSignal() }), FAILED);

/** The member reviewed answers a review (`edit`: changes their answer). */
export const saveReply = (id: string, reply: string, edit: boolean) => {
  const request = { params: { path: { id } }, body: { reply }, signal: timeoutSignal() };
  return settle<ReviewView>(
    edit ? api.PATCH('/api/reviews/{id}/reply', request) : api.POST('/api/reviews/{id}/reply', request),
    'Failed to save the reply',
  );
};
