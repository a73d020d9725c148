import { bookingQuote, quoteLines } from '@contracts/booking-quote';
import type { PriceUnit, VatOption } from '@contracts/listings';
import { BOOKING_TEXTS, bookingDay, MESSAGING_TEXTS } from '@contracts/messaging';
import type { ApiResult } from '../../lib/api-result';
import { showToast } from '../../stores/toasts';
import { bookedDates, requestBooking, sendMessage, startConversation } from './messages-api';
import { bookableRange, todayIso } from './messages-logic';

function conversationLink(note: HTMLElement | null, conversationId: string, text: string): void {
  if (!note) return;
  note.hidden = false;
  note.replaceChildren(
    `${text} `,
    Object.assign(document.createElement('a'), { href: `/messages?conversation=${conversationId}`, textContent: 'View conversation' }),
  );
}

function signInPrompt(note: HTMLElement | null, signInHref: string): void {
  showToast({ title: MESSAGING_TEXTS.signInTitle, description: MESSAGING_TEXTS.signIn, variant: 'destructive' });
  if (!note) return;
  note.hidden = false;
  note.replaceChildren(
    `${MESSAGING_TEXTS.signIn} `,
    Object.assign(document.createElement('a'), { href: signInHref, textContent: 'Sign In' }),
  );
}

function failure(result: Extract<ApiResult<unknown>, { ok: false }>, title: string = MESSAGING_TEXTS.sendFailedTitle): void {
  // The server's own words for a refusal (blocked, not confirmed, too many); the spec's for the rest.
  const description = result.status >= 400 && result.status < 500 && result.status !== 401 ? result.error : MESSAGING_TEXTS.sendFailed;
  showToast({ title, description, variant: 'destructive' });
}

/**
 * The listing page's Message Seller dialog (SPEC §2 "Listing detail": four quick templates, the
 * spec's toasts) and, on a rental, Book Now. Visitors are asked to sign in and come back here; the
 * owner is told they cannot message themselves.
 */
export function setupListingMessaging(root: HTMLElement, options: { signedIn: boolean }): void {
  const listingId = root.dataset['listing'] ?? '';
  const note = root.querySelector<HTMLElement>('[data-message-note]');
  const signInHref = `/signin?redirect=${encodeURIComponent(`/listing/${listingId}`)}`;
  const isOwner = root.dataset['owner'] === 'true';

  const dialog = root.querySelector<HTMLDialogElement>('[data-message-dialog]');
  const text = dialog?.querySelector<HTMLTextAreaElement>('textarea');
  const sendButton = dialog?.querySelector<HTMLButtonElement>('[data-message-send]');
  root.querySelector('[data-message-seller]')?.addEventListener('click', (event) => {
    event.preventDefault();
    if (!options.signedIn) return signInPrompt(note, signInHref);
    if (isOwner) {
      showToast({ title: MESSAGING_TEXTS.ownListingTitle, description: MESSAGING_TEXTS.ownListing, variant: 'destructive' });
      return;
    }
    dialog?.showModal();
    text?.focus();
  });
  dialog?.querySelectorAll<HTMLButtonElement>('[data-template]').forEach((button) =>
    button.addEventListener('click', () => {
      if (!text) return;
      text.value = button.dataset['template'] ?? '';
      text.focus();
    }),
  );
  dialog?.querySelector('[data-message-cancel]')?.addEventListener('click', () => dialog.close());
  dialog?.querySelector('form')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const content = text?.value.trim() ?? '';
    if (!content) {
      showToast({ title: MESSAGING_TEXTS.emptyTitle, description: MESSAGING_TEXTS.empty, variant: 'destructive' });
      return;
    }
    if (sendButton) {
      sendButton.disabled = true;
      sendButton.textContent = 'Sending...';
    }
    const conversation = await startConversation(listingId);
    const sent = conversation.ok ? await sendMessage(conversation.data.id, content) : conversation;
    if (sendButton) {
      sendButton.disabled = false;
      sendButton.textContent = 'Send Message';
    }
    if (!sent.ok) {
      if (sent.status === 401) return signInPrompt(note, signInHref);
      return failure(sent);
    }
    showToast({ title: MESSAGING_TEXTS.sentTitle, description: 'The seller will see it in their messages.', variant: 'success' });
    if (text) text.value = '';
    dialog?.close();
    if (conversation.ok) conversationLink(note, conversation.data.id, 'Your message was sent.');
  });

  const booking = root.querySelector<HTMLDialogElement>('[data-booking-dialog]');
  if (!booking) return;
  const from = booking.querySelector<HTMLInputElement>('[name="from"]');
  const to = booking.querySelector<HTMLInputElement>('[name="to"]');
  const bookingNote = booking.querySelector<HTMLTextAreaElement>('[name="note"]');
  const error = booking.querySelector<HTMLElement>('[data-booking-error]');
  const range = bookableRange(booking.dataset['availableFrom'] || undefined, booking.dataset['availableTo'] || undefined, todayIso());
  for (const input of [from, to]) {
    if (!input) continue;
    input.min = range.min;
    if (range.max) input.max = range.max;
  }
  from?.addEventListener('change', () => {
    if (to && from.value) to.min = from.value;
  });
  const quantity = booking.querySelector<HTMLInputElement>('[name="quantity"]');
  const showQuote = bookingQuoteShower(booking);
  for (const input of [from, to, quantity]) input?.addEventListener('input', () => showQuote(from?.value, to?.value, quantity?.value));
  const openBooking = () => {
    if (!options.signedIn) return signInPrompt(note, signInHref);
    if (isOwner) {
      showToast({ title: 'Error', description: BOOKING_TEXTS.ownListing, variant: 'destructive' });
      return;
    }
    booking.showModal();
    from?.focus();
    void showTaken(booking, listingId);
  };
  root.querySelector('[data-book-now]')?.addEventListener('click', openBooking);
  booking.querySelector('[data-booking-cancel]')?.addEventListener('click', () => booking.close());
  booking.querySelector('form')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (error) error.hidden = true;
    const submit = booking.querySelector<HTMLButtonElement>('[type="submit"]');
    if (submit) submit.disabled = true;
    const result = await requestBooking({
      listingId,
      from: from?.value ?? '',
      to: to?.value ?? '',
      ...(bookingNote?.value.trim() ? { note: bookingNote.value.trim() } : {}),
      ...(quantity?.value ? { quantity: Number(quantity.value) } : {}),
    });
    if (submit) submit.disabled = false;
    if (!result.ok) {
      if (result.status === 401) return signInPrompt(note, signInHref);
      if (result.status === 400 && error) {
        error.textContent = result.error;
        error.hidden = false;
        return;
      }
      return failure(result);
    }
    showToast({
      title: BOOKING_TEXTS.sentTitle,
      description: 'The owner will accept or decline it in your conversation.',
      variant: 'success',
    });
    booking.close();
    conversationLink(note, result.data.conversation_id, 'Your booking request was sent.');
  });
  if (new URLSearchParams(window.location.search).get('book') === '1') openBooking();
}

/**
 * Shows the booking's total for the dates and acres or head chosen, worked out as the API will
 * (the same contract), with its VAT line; a problem with the quantity shows instead.
 */
function bookingQuoteShower(dialog: HTMLDialogElement): (from?: string, to?: string, quantity?: string) => void {
  const box = dialog.querySelector<HTMLElement>('[data-booking-quote]');
  const listed = Number(dialog.dataset['listedQuantity']);
  return (from, to, quantity) => {
    if (!box) return;
    const result =
      from && to && to >= from
        ? bookingQuote({
            pricePence: Number(dialog.dataset['pricePence']),
            unit: dialog.dataset['priceUnit'] as PriceUnit,
            vat: dialog.dataset['vat'] as VatOption,
            from,
            to,
            quantity: quantity ? Number(quantity) : null,
            listedQuantity: dialog.dataset['listedQuantity'] && Number.isFinite(listed) ? listed : undefined,
          })
        : undefined;
    box.hidden = !result;
    if (!result) return;
    const lines = 'quote' in result ? quoteLines(result.quote) : { basis: Object.values(result.errors).join(' '), vat: '', total: '' };
    for (const [name, text] of Object.entries(lines)) {
      const line = box.querySelector<HTMLElement>(`[data-quote-${name}]`);
      if (line) line.textContent = text;
    }
  };
}

/** Lists the dates the rental's accepted bookings already hold, so a requester can avoid them. */
async function showTaken(dialog: HTMLDialogElement, listingId: string): Promise<void> {
  const line = dialog.querySelector<HTMLElement>('[data-booking-taken]');
  const taken = await bookedDates(listingId);
  if (!line || !taken.ok || taken.data.length === 0) return;
  line.textContent = `Already booked: ${taken.data.map((range) => `${bookingDay(range.from)} to ${bookingDay(range.to)}`).join('; ')}.`;
  line.hidden = false;
}
