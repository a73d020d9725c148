import { $toasts, dismissToast, type Toast } from '../../stores/toasts';

/**
 * Keeps the region in step with $toasts (newest first): new toasts are added from the template,
 * dismissed ones removed, and the ones still showing are left alone so they do not animate again.
 */
export function mountToaster(region: HTMLElement, template: HTMLTemplateElement): () => void {
  const shown = new Map<number, HTMLElement>();
  return $toasts.subscribe((toasts) => {
    const current = new Set(toasts.map((toast) => toast.id));
    for (const [id, element] of shown) {
      if (current.has(id)) continue;
      element.remove();
      shown.delete(id);
    }
    toasts.forEach((toast, index) => {
      const element = shown.get(toast.id) ?? renderToast(template, toast);
      shown.set(toast.id, element);
      if (region.children[index] !== element) region.insertBefore(element, region.children[index] ?? null);
    });
  });
}

function renderToast(template: HTMLTemplateElement, toast: Toast): HTMLElement {
  const element = (template.content.firstElementChild as HTMLElement).cloneNode(true) as HTMLElement;
  element.classList.add(`toast--${toast.variant}`);
  element.dataset['variant'] = toast.variant;
  element.setAttribute('role', toast.variant === 'destructive' ? 'alert' : 'status');
  element.querySelector('.toast__title')!.textContent = toast.title;
  const description = element.querySelector('.toast__description')!;
  if (toast.description) description.textContent = toast.description;
  else description.remove();
  element.querySelector('.toast__close')!.addEventListener('click', () => dismissToast(toast.id));
  return element;
}
