import { render } from 'preact';
import { createElement } from 'react';
import { MessagesBell } from './MessagesBell';
import './messages-bell.css';

/** Puts the messages bell in its header slot; loaded only for signed-in users (SiteHeader.astro). */
export function mountMessagesBell(slot: HTMLElement): void {
  render(createElement(MessagesBell) as never, slot);
}
