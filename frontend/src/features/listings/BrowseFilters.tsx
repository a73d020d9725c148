import { useStore } from '@nanostores/react';
import { Fragment, useEffect, useRef, useState } from 'react';
import { CATEGORIES } from '@contracts/categories';
import { $browseProblem, $browseSearch, applyBrowseFilters } from '../../stores/browse';
import { activeFilterCount, DATE_LABELS, DEFAULT_RADIUS, rangeFields, SORT_LABELS, sortChoices, valueFilters } from './browse-query';
import { makesInUse } from './listings-api';
import { PlacePickerField, type PlacePickerHandle } from './PlacePickerField';

const MOBILE = '(max-width: 1023px)';
export const PLACE_NOT_FOUND = 'We could not find that place. Choose a UK town or village from the list.';

interface Props {
  /** The filters the server rendered the results for (normalised, as a query string). */
  filters: string;
  /** A place name typed without JavaScript, when the server could not find it. */
  typedPlace: string;
  placeNotFound: boolean;
}

/**
 * The browse page's filter panel (SPEC §2 Browse), an island over the server-rendered results.
 * Without JavaScript it is a GET form to /browse. With it, a change applies at once (the words and
 * the place on Enter, Apply or a choice from the list): the URL says the filters and the results
 * (browse.ts) load them. On narrow screens it is a side panel behind the Filters button.
 */
export default function BrowseFilters({ filters: initial, typedPlace, placeNotFound }: Props) {
  const search = useStore($browseSearch);
  const filters = search?.filters ?? new URLSearchParams(initial);
  const form = useRef<HTMLFormElement>(null);
  const panel = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const place = useRef<PlacePickerHandle>(null);
  const [open, setOpen] = useState(false);
  /** Bumped when filters come from elsewhere (a tab, Back, Clear all): the form is drawn afresh from them. */
  const [version, setVersion] = useState(0);
  const ownApply = useRef<string | null>(null);
  /** The make filter's suggestions, loaded the first time it is focused. */
  const [makes, setMakes] = useState<string[]>([]);
  const loadMakes = () => {
    if (makes.length === 0) void makesInUse().then((outcome) => outcome.ok && setMakes(outcome.data.makes));
  };

  const apply = async () => {
    if (!form.current) return;
    if ((await place.current?.resolve()) === null) {
      $browseProblem.set(PLACE_NOT_FOUND);
      return;
    }
    const values = new URLSearchParams(new FormData(form.current) as unknown as string[][]);
    ownApply.current = values.toString();
    applyBrowseFilters(values);
  };

  useEffect(() => {
    document.querySelector<HTMLElement>('[data-browse]')?.setAttribute('data-enhanced', 'true');
    return $browseSearch.listen(() => {
      if (ownApply.current === null) setVersion((n) => n + 1);
      ownApply.current = null;
    });
  }, []);

  // A choice applies at once; the words and the typed place wait for Enter or Apply (native change events: React's fire per keystroke).
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const changed = (event: Event) => {
      if ((event.target as HTMLElement).matches('[data-place-input], [name="q"]')) return;
      void apply();
    };
    element.addEventListener('change', changed);
    return () => element.removeEventListener('change', changed);
  });

  const show = (next: boolean) => {
    setOpen(next);
    if (next) requestAnimationFrame(() => panel.current?.querySelector<HTMLElement>('input, select')?.focus());
    else toggle.current?.focus();
  };
  // A tap beside the open side panel (on the dimmed page) closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) show(false);
    };
    document.addEventListener('click', outside);
    return () => document.removeEventListener('click', outside);
  });

  const count = activeFilterCount(filters);
  const badge = (
    <span className="badge browse__badge" data-filter-count hidden={count === 0}>
      {count}
    </span>
  );
  const category = filters.get('category') ?? '';
  const sorts = sortChoices(filters);
  const sort = filters.get('sort') ?? (filters.get('q') ? 'relevance' : 'newest');
  return (
    <>
      <button
        type="button"
        className="btn btn--outline browse__filter-toggle"
        aria-expanded={open}
        aria-controls="browse-filters"
        data-filter-toggle
        ref={toggle}
        onClick={() => show(!open)}
      >
        Filters {badge}
      </button>
      <aside
        className="browse__filters"
        id="browse-filters"
        aria-label="Filters"
        data-filter-panel
        data-open={open ? '' : undefined}
        ref={panel}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) show(false);
        }}
      >
        <form
          key={version}
          className="card filters"
          method="get"
          action="/browse"
          data-browse-form
          ref={form}
          onSubmit={(event) => {
            event.preventDefault();
            void apply();
            if (matchMedia(MOBILE).matches) show(false);
          }}
        >
          <div className="filters__head">
            <h2 className="filters__title">Filters {badge}</h2>
            <button type="button" className="btn btn--ghost btn--small browse__close" data-filter-close onClick={() => show(false)}>
              Close
            </button>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="filter-q">
              Search
            </label>
            <input
              className="field__input"
              id="filter-q"
              name="q"
              type="search"
              maxLength={100}
              defaultValue={filters.get('q') ?? ''}
              placeholder="Tractor, hay, grazing…"
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="filter-category">
              Category
            </label>
            <select className="field__input" id="filter-category" name="category" defaultValue={category}>
              <option value="">All categories</option>
              {CATEGORIES.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          {category === 'rentals' && (
            <div className="field" data-subcategory-field>
              <label className="field__label" htmlFor="filter-subcategory">
                Renting
              </label>
              <select className="field__input" id="filter-subcategory" name="subcategory" defaultValue={filters.get('subcategory') ?? ''}>
                <option value="">Anything</option>
                {(['land', 'equipment', 'services'] as const).map((slug) => (
                  <option key={slug} value={slug}>
                    {CATEGORIES.find((c) => c.slug === slug)?.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="field">
            <label className="field__label" htmlFor="filter-type">
              Listing type
            </label>
            <select className="field__input" id="filter-type" name="type" defaultValue={filters.get('type') ?? ''}>
              <option value="">For Sale or For Rent</option>
              <option value="sale">For Sale</option>
              <option value="rent">For Rent</option>
              <option value="wanted">Wanted (buyers' ads)</option>
            </select>
          </div>
          <fieldset className="filters__range">
            <legend className="field__label">Price (£)</legend>
            <div className="filters__pair">
              <input
                className="field__input"
                type="number"
                name="min_price"
                min="0"
                step="100"
                inputMode="numeric"
                placeholder="Min"
                aria-label="Minimum price in pounds"
                defaultValue={filters.get('min_price') ?? ''}
              />
              <span aria-hidden="true">to</span>
              <input
                className="field__input"
                type="number"
                name="max_price"
                min="0"
                step="100"
                inputMode="numeric"
                placeholder="Max"
                aria-label="Maximum price in pounds"
                defaultValue={filters.get('max_price') ?? ''}
              />
            </div>
          </fieldset>
          <div data-range-fields>
            {rangeFields(filters).map((field) => (
              <fieldset key={field.key} className="filters__range">
                <legend className="field__label">
                  {field.label}
                  {field.unit ? ` (${field.unit})` : ''}
                </legend>
                <div className="filters__pair">
                  {(['min', 'max'] as const).map((bound, index) => (
                    <Fragment key={bound}>
                      {index === 1 && <span aria-hidden="true">to</span>}
                      <input
                        className="field__input"
                        type="number"
                        inputMode="decimal"
                        id={`filter-${field.key}_${bound}`}
                        name={`${field.key}_${bound}`}
                        min={field.min}
                        max={field.max}
                        step={field.kind === 'integer' ? '1' : 'any'}
                        defaultValue={filters.get(`${field.key}_${bound}`) ?? ''}
                        placeholder={bound === 'min' ? 'Min' : 'Max'}
                        aria-label={`${field.label} ${bound === 'min' ? 'minimum' : 'maximum'}`}
                      />
                    </Fragment>
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
          <datalist id="makes-in-use">
            {makes.map((make) => (
              <option key={make} value={make} />
            ))}
          </datalist>
          <div data-value-filters>
            {valueFilters(filters).map((filter) => (
              <label key={filter.name} className="field">
                <span className="field__label">{filter.label}</span>
                {filter.input === 'select' ? (
                  <select
                    className="field__input"
                    id={`filter-${filter.name}`}
                    name={filter.name}
                    defaultValue={filters.get(filter.name) ?? ''}
                  >
                    <option value="">Any</option>
                    {filter.choices?.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    className="field__input"
                    type={filter.input}
                    id={`filter-${filter.name}`}
                    name={filter.name}
                    defaultValue={filters.get(filter.name) ?? ''}
                    {...(filter.input === 'text' ? { list: 'makes-in-use', onFocus: loadMakes } : {})}
                  />
                )}
              </label>
            ))}
          </div>
          <PlacePickerField
            ref={place}
            id="filter-place"
            label="Location"
            labelName="place"
            idName="location"
            initial={{ location: filters.get('place') ?? typedPlace, placeId: filters.get('location') ?? '' }}
            onPick={() => void apply()}
            radius={{ name: 'radius', value: filters.get('radius') ?? String(DEFAULT_RADIUS) }}
          />
          {placeNotFound && version === 0 && (
            <p className="field__error" role="alert">
              {PLACE_NOT_FOUND}
            </p>
          )}
          <div className="field">
            <label className="field__label" htmlFor="filter-date">
              Posted
            </label>
            <select className="field__input" id="filter-date" name="date" defaultValue={filters.get('date') ?? 'all'}>
              {Object.entries(DATE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <label className="filters__check">
            <input type="checkbox" name="verified" value="true" defaultChecked={filters.get('verified') === 'true'} /> Verified sellers only
          </label>
          <label className="filters__check">
            <input type="checkbox" name="featured" value="true" defaultChecked={filters.get('featured') === 'true'} /> Featured only
          </label>
          <div className="field">
            <label className="field__label" htmlFor="filter-sort">
              Sort by
            </label>
            {/* Drawn afresh when the sorts on offer change (a place adds Nearest, words add Best match). */}
            <select key={`${sorts.join()}:${sort}`} className="field__input" id="filter-sort" name="sort" data-sort defaultValue={sort}>
              {sorts.map((value) => (
                <option key={value} value={value}>
                  {SORT_LABELS[value]}
                </option>
              ))}
            </select>
          </div>
          <div className="btn-row filters__actions">
            <button type="submit" className="btn">
              Apply Filters
            </button>
            <a
              className="btn btn--ghost"
              href="/browse"
              data-filter-clear
              onClick={(event) => {
                event.preventDefault();
                applyBrowseFilters(new URLSearchParams());
              }}
            >
              Clear all
            </a>
          </div>
        </form>
      </aside>
    </>
  );
}
