import { escapeHtml } from './listing-card';
import { searchPlaces, type Place } from './listings-api';

const DEBOUNCE_MS = 200;

/**
 * The place combobox: suggestions from GET /api/places as the user types (arrow keys, Enter,
 * Escape, click); choosing one fills the hidden id. Typing again clears the id until a new choice.
 * `onPick` runs after a choice (browse applies the filter at once).
 */
export function setupPlacePicker(root: HTMLElement, onPick?: (place: Place) => void): { resolve: () => Promise<boolean> } {
  const input = root.querySelector<HTMLInputElement>('[data-place-input]');
  const list = root.querySelector<HTMLUListElement>('[data-place-options]');
  const hidden = root.querySelector<HTMLInputElement>('[data-place-id]');
  if (!input || !list || !hidden) return { resolve: async () => true };
  let places: Place[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const render = () => {
    list.innerHTML = places
      .map(
        (place, index) =>
          `<li role="option" id="${input.id}-option-${index}" aria-selected="${index === active}" data-index="${index}">${escapeHtml(place.label)}</li>`,
      )
      .join('');
    list.hidden = places.length === 0;
    input.setAttribute('aria-expanded', String(places.length > 0));
    if (active >= 0) input.setAttribute('aria-activedescendant', `${input.id}-option-${active}`);
  };
  const pick = (place: Place) => {
    input.value = place.label;
    hidden.value = place.id;
    close();
    onPick?.(place);
  };
  const lookUp = async (text: string): Promise<Place[]> => {
    controller?.abort();
    controller = new AbortController();
    const outcome = await searchPlaces(text, controller.signal);
    return outcome.ok ? outcome.data : [];
  };

  input.addEventListener('input', () => {
    hidden.value = '';
    clearTimeout(timer);
    const text = input.value.trim();
    if (text.length < 2) {
      places = [];
      close();
      return;
    }
    timer = setTimeout(async () => {
      places = await lookUp(text);
      active = -1;
      render();
    }, DEBOUNCE_MS);
  });
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      active = (active + (event.key === 'ArrowDown' ? 1 : places.length - 1)) % places.length;
      render();
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      const place = places[active];
      if (place) pick(place);
    } else if (event.key === 'Escape') {
      close();
    }
  });
  list.addEventListener('mousedown', (event) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const place = item ? places[Number(item.dataset['index'])] : undefined;
    if (place) {
      event.preventDefault();
      pick(place);
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));

  return {
    /** Before a search or a submit: a typed name without a choice becomes its best match (false if none). */
    resolve: async () => {
      const text = input.value.trim();
      if (text === '' || hidden.value !== '') return true;
      const [best] = await lookUp(text);
      if (!best) return false;
      input.value = best.label;
      hidden.value = best.id;
      return true;
    },
  };
}
