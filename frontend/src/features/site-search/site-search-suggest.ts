import { CATEGORIES } from '../../lib/categories';
import { searchPlaces, type Place } from '../listings/listings-api';

const DEBOUNCE_MS = 200;
/** How many places the list shows under the categories. */
const PLACE_LIMIT = 5;

/** A suggestion: where choosing it goes, and what the list says. */
export interface Suggestion {
  label: string;
  kind: 'Category' | 'Place';
  href: string;
}

/** Categories whose name has a word starting with the typed text ("live" → Livestock, "plant" → Seeds & Plants). */
export function categorySuggestions(text: string): Suggestion[] {
  const typed = text.trim().toLowerCase();
  if (typed.length < 2) return [];
  return CATEGORIES.filter((category) =>
    category.name
      .toLowerCase()
      .split(/[^a-z]+/)
      .some((word) => word.startsWith(typed)),
  ).map((category) => ({ label: category.name, kind: 'Category', href: `/browse?category=${category.slug}` }));
}

/** A place searches everything near it, nearest first (the browse page's place filter). */
export function placeSuggestion(place: Place): Suggestion {
  return { label: place.label, kind: 'Place', href: `/browse?${new URLSearchParams({ location: place.id, place: place.label })}` };
}

/**
 * The suggestions under the header's search box (the combobox pattern): categories matching the
 * words at once, places from GET /api/places after a pause. Arrow keys move, Enter or a click goes
 * to the choice, Escape closes; Enter without a choice submits the words as typed.
 */
export function setupSuggestions(form: HTMLFormElement, input: HTMLInputElement): void {
  const list = form.querySelector<HTMLUListElement>('[data-site-search-options]');
  if (!list) return;
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', list.id);
  let suggestions: Suggestion[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  const render = () => {
    list.replaceChildren(
      ...suggestions.map((suggestion, index) => {
        const option = document.createElement('li');
        option.id = `${list.id}-${index}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(index === active));
        option.dataset['index'] = String(index);
        const kind = document.createElement('span');
        kind.className = 'site-search__kind';
        kind.textContent = suggestion.kind;
        // The space keeps the two apart in the option's name ("Livestock Category"); the flex gap shows them apart.
        option.append(suggestion.label, ' ', kind);
        return option;
      }),
    );
    list.hidden = suggestions.length === 0;
    input.setAttribute('aria-expanded', String(!list.hidden));
    if (active >= 0) input.setAttribute('aria-activedescendant', `${list.id}-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const close = () => {
    suggestions = [];
    active = -1;
    render();
  };
  const go = (suggestion: Suggestion) => {
    close();
    window.location.assign(suggestion.href);
  };

  const update = () => {
    const text = input.value.trim();
    const categories = categorySuggestions(text);
    suggestions = categories;
    active = -1;
    render();
    clearTimeout(timer);
    controller?.abort();
    if (text.length < 2) return;
    timer = setTimeout(async () => {
      controller = new AbortController();
      const outcome = await searchPlaces(text, controller.signal);
      // Typed on since: that text's own lookup will answer.
      if (input.value.trim() !== text || !outcome.ok) return;
      suggestions = [...categories, ...outcome.data.slice(0, PLACE_LIMIT).map(placeSuggestion)];
      render();
    }, DEBOUNCE_MS);
  };

  input.addEventListener('input', update);
  input.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      active = ((active + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1) + 1) % (suggestions.length + 1)) - 1;
      render();
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      const suggestion = suggestions[active];
      if (suggestion) go(suggestion);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  // mousedown, not click: the box's blur (which closes the list) would come first.
  list.addEventListener('mousedown', (event) => {
    const option = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const suggestion = option ? suggestions[Number(option.dataset['index'])] : undefined;
    if (!suggestion) return;
    event.preventDefault();
    go(suggestion);
  });
  input.addEventListener('blur', () => setTimeout(close, 150));
  // Focused by typing before this module arrived: suggest for what is there already.
  if (input.value.trim() !== '') update();
}
