import { REPORT_REASONS, type ReportReason, type ReportTarget } from '@contracts/staff';
import { api, hasSignedInHint } from '../../lib/api';
import { showToast } from '../../stores/toasts';
import { REQUEST_TIMEOUT_MS, settle } from '../listings/listings-api';

/** The form's values, checked as the API checks them; an error message, or the report to send. */
export function reportFrom(
  kind: ReportTarget,
  targetId: string,
  reason: string,
  details: string,
):
  | { ok: true; report: { target_kind: ReportTarget; target_id: string; reason: ReportReason; details?: string } }
  | { ok: false; error: string } {
  if (!(reason in REPORT_REASONS)) return { ok: false, error: 'Please choose a reason' };
  const trimmed = details.trim();
  if (trimmed.length > 1000) return { ok: false, error: 'Details must be at most 1000 characters' };
  return {
    ok: true,
    report: { target_kind: kind, target_id: targetId, reason: reason as ReportReason, ...(trimmed ? { details: trimmed } : {}) },
  };
}

/** Wires one Report button: visitors go to sign in; signed-in people fill the dialog and send it. */
export function setupReport(root: HTMLElement): void {
  const kind = root.dataset['reportKind'] as ReportTarget;
  const targetId = root.dataset['reportTarget'] ?? '';
  const dialog = root.querySelector<HTMLDialogElement>('[data-report-dialog]');
  const form = root.querySelector<HTMLFormElement>('[data-report-form]');
  const error = root.querySelector<HTMLElement>('[data-report-error]');
  const send = root.querySelector<HTMLButtonElement>('[data-report-send]');
  if (!dialog || !form || !error || !send) return;

  const showError = (text: string) => {
    error.textContent = text;
    error.hidden = false;
  };

  root.querySelector('[data-report-open]')?.addEventListener('click', () => {
    if (!hasSignedInHint(document.cookie)) {
      location.assign(root.dataset['signinHref'] ?? '/signin');
      return;
    }
    error.hidden = true;
    dialog.showModal();
  });
  root.querySelector('[data-report-cancel]')?.addEventListener('click', () => dialog.close());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = new FormData(form);
    const checked = reportFrom(kind, targetId, String(values.get('reason') ?? ''), String(values.get('details') ?? ''));
    if (!checked.ok) {
      showError(checked.error);
      return;
    }
    send.disabled = true;
    const outcome = await settle<{ message: string }>(() =>
      api.POST('/api/reports', { body: checked.report, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    );
    send.disabled = false;
    if (outcome.ok) {
      dialog.close();
      form.reset();
      showToast({ title: 'Report sent', description: outcome.data.message, variant: 'success' });
    } else if (outcome.status === 401) {
      location.assign(root.dataset['signinHref'] ?? '/signin');
    } else {
      showError(outcome.error);
    }
  });
}
