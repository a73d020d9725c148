/**
 * A disclosure: the `[data-disclosure-toggle]` button inside `root` opens and closes the
 * `[data-disclosure-panel]` it controls. While open, Escape closes it (focus returns to the toggle),
 * as do a press outside `root` and keyboard focus leaving it.
 */
export function setupDisclosure(root: HTMLElement): void {
  const toggle = root.querySelector<HTMLButtonElement>('[data-disclosure-toggle]');
  const panel = root.querySelector<HTMLElement>('[data-disclosure-panel]');
  if (!toggle || !panel) return;

  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
  };

  toggle.addEventListener('click', () => setOpen(!isOpen()));
  document.addEventListener('pointerdown', (event) => {
    if (isOpen() && event.target instanceof Node && !root.contains(event.target)) setOpen(false);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    setOpen(false);
    toggle.focus();
  });
  // A blur towards nothing (Safari does not focus clicked links) is left to the pointerdown
  // handler, so a click on a link in the panel still lands.
  root.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Node && !root.contains(event.relatedTarget)) setOpen(false);
  });
}
