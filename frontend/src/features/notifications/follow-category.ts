import { showToast } from '../../stores/toasts';

const HEADERS = { 'X-Requested-With': 'fieldmarket' } as const;

async function call(method: 'GET' | 'POST' | 'DELETE', path: string): Promise<string[] | null> {
  try {
    const response = await fetch(path, { method, headers: HEADERS, credentials: 'same-origin', signal: AbortSignal.timeout(15_000) });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: { categories?: string[] } };
    return body.data?.categories ?? null;
  } catch {
    return null;
  }
}

function show(button: HTMLButtonElement, following: boolean): void {
  const name = button.dataset['categoryName'] ?? '';
  button.setAttribute('aria-pressed', String(following));
  button.textContent = following ? `Following ${name}` : `Follow ${name}`;
}

/** Shows the button to a signed-in user with whether they follow the category, and toggles it. */
export async function setupFollowButton(button: HTMLButtonElement): Promise<void> {
  const slug = button.dataset['followCategory'] ?? '';
  const followed = await call('GET', '/api/follows');
  if (!followed) return;
  show(button, followed.includes(slug));
  button.hidden = false;
  button.addEventListener('click', async () => {
    const following = button.getAttribute('aria-pressed') === 'true';
    button.disabled = true;
    const now = await call(following ? 'DELETE' : 'POST', `/api/follows/categories/${encodeURIComponent(slug)}`);
    button.disabled = false;
    if (!now) {
      showToast({ title: 'Error', description: 'Could not update. Please try again.', variant: 'destructive' });
      return;
    }
    show(button, now.includes(slug));
    showToast({
      title: now.includes(slug) ? `Following ${button.dataset['categoryName']}` : `Unfollowed ${button.dataset['categoryName']}`,
      description: now.includes(slug) ? 'You will be notified of new listings here.' : undefined,
      variant: 'success',
    });
  });
}
