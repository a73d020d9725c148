import { classifyError, ERROR_MESSAGES } from './classify-error';
import './error-screen.css';

interface ErrorScreenProps {
  error: unknown;
  /** Called by Try Again; without it Try Again reloads too. */
  onRetry?: () => void;
}

/** The generic "Something went wrong" screen, worded by the kind of error. */
export function ErrorScreen({ error, onRetry }: ErrorScreenProps) {
  const kind = classifyError(error);
  const reload = () => window.location.reload();
  return (
    <div className="error-screen" role="alert" data-testid="error-screen" data-kind={kind}>
      <h2 className="error-screen__title">Something went wrong</h2>
      <p className="error-screen__message">{ERROR_MESSAGES[kind]}</p>
      <div className="btn-row">
        <button type="button" className="btn" onClick={onRetry ?? reload}>
          Try Again
        </button>
        <button type="button" className="btn btn--outline" onClick={reload}>
          Reload Page
        </button>
      </div>
    </div>
  );
}
