import { signInWithForm, signUpThroughApi, uniqueEmail } from './account-steps.js';
import { expect, test } from './fixtures.js';

const PASSWORD = 'Meadow-Gate-2026';

test.describe('messages', () => {
  test('a visitor opening a conversation link is sent to sign in and comes back to it', async ({ page }) => {
    const email = uniqueEmail('messages');
    await signUpThroughApi(page.request, email, PASSWORD);

    await page.goto('/');
    await page.goto('/messages?conversation=7');
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fmessages%3Fconversation%3D7$/);
    await expect(page.getByTestId('conversation-list')).toBeHidden();
    // History was replaced: Back returns to the page before, not to /messages.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await page.goForward();

    await signInWithForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/messages\?conversation=7$/);
    // Not one of theirs: the list, with nothing selected.
    await expect(page.getByText('No conversations yet')).toBeVisible();
    await expect(page.getByText('Select a conversation')).toBeVisible();
  });
});
