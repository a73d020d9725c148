import { $session, $sessionError, loadSession, signOut, type SignedInUser } from '../../stores/session';
import { showToast } from '../../stores/toasts';
import { setupDisclosure } from './disclosure';
import { markSessionResolved } from './session-gate';

/** First letter of the name for the avatar; '?' when there is none (SPEC §2 "Messages"). */
export function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase() || '?';
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function avatar(user: SignedInUser): HTMLElement {
  const holder = element('span', { className: 'avatar' }, initialOf(user.full_name));
  holder.setAttribute('aria-hidden', 'true');
  if (user.avatar_url) {
    const image = element('img', { src: user.avatar_url, alt: '', width: 32, height: 32 });
    // A picture that fails is dropped; the initial stays (SPEC §8 "Avatar").
    image.addEventListener('error', () => image.remove());
    holder.append(image);
  }
  return holder;
}

async function signOutAndLeave(): Promise<void> {
  await signOut();
  window.location.assign('/');
}

/** The avatar and name button with its menu: Signed in as, Profile, Sign Out (SPEC §2 "Header"). */
function accountMenu(user: SignedInUser): HTMLElement {
  const toggle = element(
    'button',
    { type: 'button', className: 'account-menu__toggle' },
    avatar(user),
    element('span', { className: 'account-menu__name' }, user.full_name),
  );
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', 'account-menu-panel');
  toggle.setAttribute('aria-label', `Account menu for ${user.full_name}`);
  toggle.dataset['disclosureToggle'] = '';
  toggle.dataset['testid'] = 'account-menu';

  const signOutButton = element('button', { type: 'button', className: 'account-menu__item' }, 'Sign Out');
  signOutButton.addEventListener('click', () => void signOutAndLeave());
  const panel = element(
    'div',
    { id: 'account-menu-panel', className: 'account-menu__panel', hidden: true },
    element('p', { className: 'account-menu__who' }, 'Signed in as ', element('strong', {}, user.email)),
    element(
      'ul',
      {},
      element('li', {}, element('a', { className: 'account-menu__item', href: '/profile' }, 'Profile')),
      element('li', {}, signOutButton),
    ),
  );
  panel.dataset['disclosurePanel'] = '';
  const root = element('div', { className: 'account-menu' }, toggle, panel);
  root.dataset['disclosure'] = '';
  setupDisclosure(root);
  return root;
}

/**
 * Loaded only when the fm_signed_in hint cookie is present (SiteHeader.astro), so visitors download
 * none of this: asks who is signed in, then puts the account menu where Sign Up and Sign In were,
 * in the header and in the mobile menu.
 */
export async function mountAccountMenu(slot: HTMLElement): Promise<void> {
  slot.setAttribute('aria-busy', 'true');
  const state = await loadSession();
  slot.removeAttribute('aria-busy');
  markSessionResolved();
  const error = $sessionError.get();
  if (error) showToast({ title: error, variant: 'destructive' });
  if (state.status !== 'signed-in') return;
  slot.replaceChildren(accountMenu(state.user));

  const mobile = document.querySelector<HTMLElement>('[data-mobile-account]');
  if (mobile) {
    const signOutButton = element('button', { type: 'button', className: 'btn btn--outline' }, 'Sign Out');
    signOutButton.addEventListener('click', () => void signOutAndLeave());
    mobile.replaceChildren(element('a', { className: 'btn', href: '/profile' }, 'Profile'), signOutButton);
  }

  // A later sign-out (another island) or an expired session puts Sign In back.
  $session.listen((next) => {
    if (next.status === 'visitor') window.location.reload();
  });
}
