import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, type Toast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import './toaster.css';

/** Renders $toasts (newest on top) in a polite live region that exists from first paint. */
function Toaster() {
  const toasts = useStore($toasts);
  return (
    <div className="toaster" aria-live="polite" data-testid="toaster">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  return (
    <div
      className={`toast toast--${toast.variant}`}
      role={toast.variant === 'destructive' ? 'alert' : 'status'}
      data-testid="toast"
      data-variant={toast.variant}
    >
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        {toast.description && <p className="toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => dismissToast(toast.id)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export default withErrorBoundary(Toaster);
