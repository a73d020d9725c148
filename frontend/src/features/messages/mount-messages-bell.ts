import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { MessagesBell } from './MessagesBell';
import './messages-bell.css';

/** Puts the messages bell in its header slot; loaded only for signed-in users (SiteHeader.astro). */
export function mountMessagesBell(slot: HTMLElement): void {
  createRoot(slot).render(createElement(MessagesBell));
}
