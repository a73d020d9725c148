import { api } from '../../lib/api';
import { timeoutSignal } from '../../lib/api-result';
import { interpretFeedbackFailure, interpretFeedbackResponse, type FeedbackOutcome, type FeedbackPayload } from './feedback-form';

/** POSTs the feedback (15-second timeout, SPEC §9); every way it can end comes back as an outcome. */
export async function submitFeedback(payload: FeedbackPayload): Promise<FeedbackOutcome> {
  try {
    const { data, error, response } = await api.POST('/api/feedback', { body: payload, signal: timeoutSignal() });
    return interpretFeedbackResponse(response.status, data ?? error);
  } catch (error) {
    console.error('Failed to send feedback', error);
    return interpretFeedbackFailure(error);
  }
}
