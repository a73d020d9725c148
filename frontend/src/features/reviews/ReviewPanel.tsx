import { useEffect, useState } from 'react';
import { REVIEW_RULES } from '@contracts/reviews';
import { editReview, loadEligibility, type ReviewEligibility, writeReview } from './reviews-api';
import { reviewErrors, starsLabel, starsText } from './reviews-logic';

/**
 * "Leave a review" in a conversation about a listing (issue 23 §3): the form once the deal is done
 * and 24 hours have passed, the reason while not, and the member's own review (changeable for 48
 * hours) once written.
 */
export function ReviewPanel({ conversationId }: { conversationId: string }) {
  const [state, setState] = useState<ReviewEligibility | null>(null);
  const [open, setOpen] = useState(false);
  const [stars, setStars] = useState(0);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'stars' | 'text' | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setState(null);
    setOpen(false);
    void loadEligibility(conversationId).then((result) => {
      if (current && result.ok) setState(result.data);
    });
    return () => {
      current = false;
    };
  }, [conversationId]);

  if (!state) return null;
  const mine = state.review;

  const start = () => {
    setStars(mine?.stars ?? 0);
    setText(mine?.text ?? '');
    setErrors({});
    setOpen(true);
  };

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    const problems = reviewErrors(stars, text);
    setErrors(problems);
    if (Object.keys(problems).length > 0 || busy) return;
    setBusy(true);
    const result = mine ? await editReview(mine.id, stars, text) : await writeReview(conversationId, stars, text);
    setBusy(false);
    if (!result.ok) {
      setErrors({ ...result.fields, form: Object.keys(result.fields).length ? undefined : result.error });
      return;
    }
    setState({ ...state, can_review: false, reason: null, review: result.data });
    setOpen(false);
  };

  return (
    <div className="chat-review" data-testid="review-panel">
      {mine ? (
        <p className="chat-review__line">
          You reviewed {state.reviewed_name}:{' '}
          <span className="review__stars" role="img" aria-label={starsLabel(mine.stars)}>
            {starsText(mine.stars)}
          </span>{' '}
          <a href={`/profile/${state.reviewed_id}#reviews`}>See it on their profile</a>
          {mine.can_edit && !open && (
            <button type="button" className="btn btn--ghost btn--small" onClick={start}>
              Change
            </button>
          )}
        </p>
      ) : state.can_review ? (
        !open && (
          <button type="button" className="btn btn--small btn--outline" onClick={start} data-testid="review-start">
            Leave a review of {state.reviewed_name}
          </button>
        )
      ) : (
        <p className="chat-review__line chat-review__line--muted" data-testid="review-reason">
          {state.reason}
        </p>
      )}
      {open && (
        <form className="chat-review__form" onSubmit={submit} noValidate>
          <fieldset className="chat-review__stars">
            <legend>Your rating of {state.reviewed_name}</legend>
            {[1, 2, 3, 4, 5].map((n) => (
              <label key={n} className="chat-review__star">
                <input type="radio" name="stars" value={n} checked={stars === n} onChange={() => setStars(n)} />
                <span aria-hidden="true">{n <= stars ? '★' : '☆'}</span>
                <span className="visually-hidden">{starsLabel(n)}</span>
              </label>
            ))}
          </fieldset>
          {errors.stars && <p className="field__error">{errors.stars}</p>}
          <label className="form-field">
            <span>Your review (about “{state.listing_title}”)</span>
            <textarea
              rows={3}
              maxLength={REVIEW_RULES.text.maxLength}
              value={text}
              onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
              data-testid="review-text"
            />
          </label>
          {errors.text && <p className="field__error">{errors.text}</p>}
          {errors.form && (
            <p className="field__error" role="alert">
              {errors.form}
            </p>
          )}
          <div className="btn-row">
            <button type="submit" className="btn btn--small" disabled={busy} data-testid="review-send">
              {busy ? 'Saving...' : mine ? 'Save review' : 'Publish review'}
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
