import { useEffect, useRef, useState } from 'react';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { advanceOffset } from './testimonial-scroll';
import { TESTIMONIALS, type Testimonial } from './testimonials';
import './testimonial-strip.css';

type PauseReason = 'hover' | 'focus' | 'offscreen' | 'user';

/**
 * Testimonials that drift sideways 1px per frame, looping over a doubled list. Pauses on hover,
 * on keyboard focus, off screen and with the Pause button; without motion (prefers-reduced-motion)
 * it is a plain horizontally scrollable list.
 */
function TestimonialStrip() {
  const [animate, setAnimate] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const viewportRef = useRef<HTMLDivElement>(null);
  const trackRef = useRef<HTMLUListElement>(null);
  const pauses = useRef(new Set<PauseReason>());

  const setPaused = (reason: PauseReason, paused: boolean) => {
    if (paused) pauses.current.add(reason);
    else pauses.current.delete(reason);
  };

  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setAnimate(!query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  useEffect(() => {
    const viewport = viewportRef.current;
    const track = trackRef.current;
    if (!animate || !viewport || !track) return;
    const observer = new IntersectionObserver(([entry]) => setPaused('offscreen', !entry?.isIntersecting));
    observer.observe(viewport);
    let offset = 0;
    let frame = requestAnimationFrame(function tick() {
      if (pauses.current.size === 0) {
        offset = advanceOffset(offset, track.scrollWidth / 2);
        track.style.transform = `translateX(${-offset}px)`;
      }
      frame = requestAnimationFrame(tick);
    });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      track.style.transform = '';
    };
  }, [animate]);

  const toggleUserPause = () => {
    setPaused('user', !userPaused);
    setUserPaused(!userPaused);
  };

  const items = animate ? [...TESTIMONIALS, ...TESTIMONIALS] : TESTIMONIALS;

  return (
    <div className="testimonials" data-testid="testimonials" data-animated={animate}>
      <div
        ref={viewportRef}
        className="testimonials__viewport"
        role="region"
        aria-label="Testimonials"
        tabIndex={0}
        onMouseEnter={() => setPaused('hover', true)}
        onMouseLeave={() => setPaused('hover', false)}
        onFocus={() => setPaused('focus', true)}
        onBlur={() => setPaused('focus', false)}
      >
        <ul ref={trackRef} className="testimonials__track">
          {items.map((testimonial, index) => (
            <TestimonialCard key={`${testimonial.id}-${index}`} testimonial={testimonial} duplicate={index >= TESTIMONIALS.length} />
          ))}
        </ul>
      </div>
      {animate && (
        <button type="button" className="btn btn--ghost btn--small testimonials__pause" onClick={toggleUserPause}>
          {userPaused ? 'Resume scrolling' : 'Pause scrolling'}
        </button>
      )}
    </div>
  );
}

function TestimonialCard({ testimonial, duplicate }: { testimonial: Testimonial; duplicate: boolean }) {
  return (
    <li className="card testimonial" aria-hidden={duplicate || undefined}>
      <p className="testimonial__rating" role="img" aria-label={`Rated ${testimonial.rating} out of 5`}>
        {'★'.repeat(testimonial.rating)}
      </p>
      <blockquote className="testimonial__quote">
        <p>“{testimonial.quote}”</p>
      </blockquote>
      <p className="testimonial__author">
        <strong>{testimonial.name}</strong>
        <span>
          {testimonial.role}, {testimonial.location}
        </span>
      </p>
    </li>
  );
}

export default withErrorBoundary(TestimonialStrip);
