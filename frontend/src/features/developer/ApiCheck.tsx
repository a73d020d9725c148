import { useState } from 'react';
import { api } from '../../lib/api';
import { timeoutSignal } from '../../lib/api-result';
import { useHydrated } from '../../lib/use-hydrated';
import './developer.css';

/** The shown part of an answer's body: enough to read, not a wall of text. */
const SHOWN_CHARACTERS = 1_500;

/** The API calls the simple API test makes (SPEC §7 "Diagnostics only": the categories and the session; health). */
const CALLS = [
  { label: 'Health', path: 'GET /api/health', send: () => api.GET('/api/health', { signal: timeoutSignal() }) },
  { label: 'Categories', path: 'GET /api/categories', send: () => api.GET('/api/categories', { signal: timeoutSignal() }) },
  {
    label: 'Featured listings',
    path: 'GET /api/listings/featured?limit=1',
    send: () => api.GET('/api/listings/featured', { params: { query: { limit: 1 } }, signal: timeoutSignal() }),
  },
  { label: 'Your session', path: 'GET /api/auth/me', send: () => api.GET('/api/auth/me', { signal: timeoutSignal() }) },
] as const;

type Answer = { status: number | 'failed'; ms: number; body: string };

/** One button per call; each shows the status, the time taken and the body the API answered. */
export default function ApiCheck() {
  const hydrated = useHydrated();
  const [answers, setAnswers] = useState<Record<string, Answer | 'waiting'>>({});

  const run = async (call: (typeof CALLS)[number]) => {
    setAnswers((now) => ({ ...now, [call.path]: 'waiting' }));
    const started = performance.now();
    let answer: Answer;
    try {
      const { data, error, response } = await call.send();
      answer = { status: response.status, ms: Math.round(performance.now() - started), body: JSON.stringify(data ?? error, null, 2) };
    } catch (error) {
      answer = {
        status: 'failed',
        ms: Math.round(performance.now() - started),
        body: error instanceof Error ? error.message : String(error),
      };
    }
    setAnswers((now) => ({ ...now, [call.path]: answer }));
  };

  return (
    <ul className="dev-checks">
      {CALLS.map((call) => {
        const answer = answers[call.path];
        return (
          <li key={call.path} className="card dev-checks__item" data-testid="api-check">
            <div className="dev-checks__head">
              <code>{call.path}</code>
              <button
                type="button"
                className="btn btn--small btn--outline"
                onClick={() => void run(call)}
                disabled={!hydrated || answer === 'waiting'}
              >
                {answer === 'waiting' ? 'Calling...' : `Call ${call.label}`}
              </button>
            </div>
            {answer && answer !== 'waiting' && (
              <>
                <p className="dev-checks__status" data-testid="api-check-status">
                  {answer.status === 'failed' ? 'No answer' : `HTTP ${answer.status}`} in {answer.ms} ms
                </p>
                <pre className="dev-checks__body">
                  {answer.body.length > SHOWN_CHARACTERS ? `${answer.body.slice(0, SHOWN_CHARACTERS)}\n…` : answer.body}
                </pre>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
