/**
 * The header's search box (SPEC issue 21 §6): a plain GET form to /browse that works without
 * JavaScript. Its suggestions (places and categories) are a module of their own, fetched the first
 * time the box is focused or typed in, so a visitor's page carries only these few lines.
 */
export function setupSiteSearch(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('[data-site-search-input]');
  if (!input) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void import('./site-search-suggest').then(({ setupSuggestions }) => setupSuggestions(form, input));
  };
  input.addEventListener('focus', start, { once: true });
  input.addEventListener('input', start, { once: true });
}
