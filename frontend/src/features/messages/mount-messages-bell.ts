import { createElement } from 'react';
import { mountRoot } from '../../lib/mount-root';
import { MessagesBell } from './MessagesBell';
import './messages-bell.css';

/** Puts the messages bell in its header slot; loaded only for signed-in users (SiteHeader.astro). */
export function mountMessagesBell(slot: HTMLElement): void {
  mountRoot(slot, createElement(MessagesBell));
}
