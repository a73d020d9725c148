/**
 * Next offset of the looping testimonial strip. The strip holds its cards twice, so when the
 * offset passes half the track width the view is identical to the start and it wraps back.
 */
export function advanceOffset(offset: number, loopWidth: number, step = 1): number {
  if (loopWidth <= 0) return 0;
  const next = offset + step;
  return next >= loopWidth ? next - loopWidth : next;
}
