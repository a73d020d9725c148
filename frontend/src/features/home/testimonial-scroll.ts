/**
 * Next offset of the looping testimonial strip. The strip holds its cards twice, so when the
 * offset passes half the track width the view is identical to the start and it wraps back.
 */
export function advanceOffset(offset: number, loopWidth: number, step = 1): number {
  if (loopWidth <= 0) return 0;
  const next = offset + step;
  return next >= loopWidth ? next - loopWidth : next;
}

type PauseReason = 'hover' | 'focus' | 'offscreen' | 'user';

/**
 * Makes the strip drift 1px per frame over a doubled list of its cards (the copies hidden from
 * assistive technology). It pauses on hover, on keyboard focus, off screen and with the Pause
 * button; when the visitor prefers reduced motion it stays a plain scrollable list.
 */
export function setupTestimonialStrip(root: HTMLElement): void {
  const viewport = root.querySelector<HTMLElement>('.testimonials__viewport');
  const track = root.querySelector<HTMLElement>('.testimonials__track');
  const pauseButton = root.querySelector<HTMLButtonElement>('.testimonials__pause');
  if (!viewport || !track || !pauseButton) return;
  const cards = [...track.children];
  const pauses = new Set<PauseReason>();
  const setPaused = (reason: PauseReason, paused: boolean) => (paused ? pauses.add(reason) : pauses.delete(reason));

  viewport.addEventListener('mouseenter', () => setPaused('hover', true));
  viewport.addEventListener('mouseleave', () => setPaused('hover', false));
  viewport.addEventListener('focusin', () => setPaused('focus', true));
  viewport.addEventListener('focusout', () => setPaused('focus', false));
  pauseButton.addEventListener('click', () => {
    setPaused('user', !pauses.has('user'));
    pauseButton.textContent = pauses.has('user') ? 'Resume scrolling' : 'Pause scrolling';
  });

  let stop: (() => void) | undefined;
  const start = () => {
    const copies = cards.map((card) => {
      const copy = card.cloneNode(true) as HTMLElement;
      copy.setAttribute('aria-hidden', 'true');
      return copy;
    });
    track.append(...copies);
    root.dataset['animated'] = 'true';
    pauseButton.hidden = false;
    const observer = new IntersectionObserver(([entry]) => setPaused('offscreen', !entry?.isIntersecting));
    observer.observe(viewport);
    let offset = 0;
    let frame = requestAnimationFrame(function tick() {
      if (pauses.size === 0) {
        offset = advanceOffset(offset, track.scrollWidth / 2);
        track.style.transform = `translateX(${-offset}px)`;
      }
      frame = requestAnimationFrame(tick);
    });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      for (const copy of copies) copy.remove();
      track.style.transform = '';
      root.dataset['animated'] = 'false';
      pauseButton.hidden = true;
    };
  };

  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
  const update = () => {
    stop?.();
    stop = reducedMotion.matches ? undefined : start();
  };
  reducedMotion.addEventListener('change', update);
  update();
}
