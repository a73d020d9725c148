import { atom } from 'nanostores';

export type ToastVariant = 'default' | 'destructive' | 'success' | 'warning' | 'info';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
}

export const MAX_VISIBLE_TOASTS = 3;
export const TOAST_DURATION_MS = 5000;

/** Visible toasts, newest first. */
export const $toasts = atom<Toast[]>([]);

/** Puts a toast on top and drops the oldest beyond the limit. */
export function pushToast(list: readonly Toast[], toast: Toast, limit = MAX_VISIBLE_TOASTS): Toast[] {
  return [toast, ...list].slice(0, limit);
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function showToast({ title, description, variant = 'default' }: ToastInput): number {
  const toast: Toast = { id: nextId++, title, variant, ...(description ? { description } : {}) };
  const next = pushToast($toasts.get(), toast);
  for (const dropped of $toasts.get()) {
    if (!next.includes(dropped)) clearTimer(dropped.id);
  }
  $toasts.set(next);
  timers.set(
    toast.id,
    setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS),
  );
  return toast.id;
}

export function dismissToast(id: number): void {
  clearTimer(id);
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

function clearTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}
