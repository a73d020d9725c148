import { mountToaster } from '../toasts/toaster';
import { hasSignedInHint } from '../../lib/signed-in-hint';
import { setupSiteSearch } from '../site-search/site-search';
import { setupDisclosure } from './disclosure';

/**
 * Everything the layout does on every page, as one script (one file to fetch rather than one per
 * component): the header's menus and search box, the toasts, the newsletter boxes, and for a signed-in visitor only the
 * account menu and the two bells, loaded by import() so a visitor's page never fetches them.
 */
document.querySelectorAll<HTMLElement>('[data-disclosure]').forEach(setupDisclosure);
document.querySelectorAll<HTMLFormElement>('[data-site-search]').forEach(setupSiteSearch);

// The API client and the address check load on the first Subscribe: every page has this box, few use it.
for (const form of document.querySelectorAll<HTMLFormElement>('[data-newsletter-form]')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void import('../newsletter/newsletter').then(({ subscribeToNewsletter }) => subscribeToNewsletter(form));
  });
}

const region = document.querySelector<HTMLElement>('[data-testid="toaster"]');
const template = document.querySelector<HTMLTemplateElement>('#toast-template');
if (region && template) mountToaster(region, template);

if (hasSignedInHint(document.cookie)) {
  const slot = document.querySelector<HTMLElement>('[data-account-slot]');
  if (slot) {
    void import('./account-menu')
      .then(({ mountAccountMenu }) => mountAccountMenu(slot))
      // The menu could not load (offline): Sign In comes back rather than Loading for ever.
      .catch(() => delete document.documentElement.dataset['session']);
  }
  const bell = document.querySelector<HTMLElement>('[data-messages-bell]');
  if (bell) void import('../messages/mount-messages-bell').then(({ mountMessagesBell }) => mountMessagesBell(bell));
  const notifications = document.querySelector<HTMLElement>('[data-notifications-slot]');
  if (notifications) {
    void import('../notifications/mount-bell').then(({ mountNotificationsBell }) => mountNotificationsBell(notifications));
  }
}
