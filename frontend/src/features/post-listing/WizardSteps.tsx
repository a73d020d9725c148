import { useState, type Ref } from 'react';
import { SELLER_TEXTS, SELLER_TYPES, TRADE_RULES } from '@contracts/trust';
import { CATEGORIES } from '@contracts/categories';
import { IMAGE_LIMITS } from '@contracts/images';
import {
  CATEGORY_FIELDS,
  choicesOf,
  LISTING_TEXTS,
  LISTING_TYPES,
  type ListingType,
  PRICE_UNITS,
  VAT_OPTIONS,
  type CategoryField,
} from '@contracts/listings';
import { LIVESTOCK_MOVEMENT } from '../listings/livestock-movement';
import { formatListingPrice } from '../../lib/listing-format';
import { PlacePickerField, type PlacePickerHandle } from '../listings/PlacePickerField';
import { categoryFacts } from '../listings/listing-facts';
import { RADIUS_CHOICES } from '../listings/browse-query';
import {
  ACCEPTED_TYPES,
  categoryChoices,
  DESCRIPTION_MAX,
  draftFields,
  listingPayload,
  parsePrice,
  priceUnits,
  STEPS,
  wantedRangeFields,
} from './wizard-logic';
import type { WizardEvent, WizardPhoto, WizardState } from './wizard-machine';

type Dispatch = (event: WizardEvent) => void;

const categoryName = (slug: string) => CATEGORIES.find((c) => c.slug === slug)?.name;

const TYPE_LABELS = { sale: 'For Sale', rent: 'For Rent', wanted: 'Wanted' } as const satisfies Record<ListingType, string>;

/** A field's error slot; the control beside it is marked invalid by the caller. */
function FieldError({ errors, field, alert = false }: { errors: Record<string, string>; field: string; alert?: boolean }) {
  return (
    <p className="field__error" data-field-error={field} role={alert ? 'alert' : undefined}>
      {errors[field] ?? ''}
    </p>
  );
}

export function StepMarkers({ step }: { step: number }) {
  return (
    <ol className="wizard__steps" aria-label="Steps">
      {STEPS.map((label, index) => (
        <li
          key={label}
          className={`wizard__step${index < step ? ' wizard__step--done' : ''}`}
          data-step-marker={index}
          aria-current={index === step ? 'step' : undefined}
        >
          <span className="wizard__step-number">{index + 1}</span>
          <span className="wizard__step-label">{label}</span>
        </li>
      ))}
    </ol>
  );
}

/** Step 1: photos, chosen or dropped; uploading shows progress; the first is the main photo. */
export function PhotosStep({
  state,
  dispatch,
  onFiles,
  onRemove,
}: {
  state: WizardState;
  dispatch: Dispatch;
  onFiles(files: FileList): void;
  onRemove(photo: WizardPhoto): void;
}) {
  const [over, setOver] = useState(false);
  const { photos } = state;
  return (
    <section className="wizard__panel" data-step="0" aria-labelledby="step-0-title">
      <h2 id="step-0-title" tabIndex={-1}>
        Upload Images
      </h2>
      <p className="wizard__hint">
        Add up to {IMAGE_LIMITS.maxFiles} photos (JPEG, PNG or WebP, under 5MB each). The first photo is the main photo. A wanted ad needs
        none.
      </p>
      <label
        className={`wizard__drop${over ? ' wizard__drop--over' : ''}`}
        data-drop
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (event.dataTransfer?.files) onFiles(event.dataTransfer.files);
        }}
      >
        {/* Not there until the island runs: a file chosen before would be lost (the page waits for it instead). */}
        {state.phase !== 'loading' && (
          <input
            type="file"
            accept={ACCEPTED_TYPES.join(',')}
            multiple
            className="visually-hidden"
            data-file-input
            onChange={(event) => {
              if (event.currentTarget.files) onFiles(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        )}
        <span className="btn btn--outline">Choose Photos</span>
        <span>or drop them here</span>
      </label>
      <p className="field__error" data-field-error="images" role="alert">
        {state.photoProblems || state.errors['images'] || ''}
      </p>
      <ol className="wizard__photos" data-photos aria-label="Photos">
        {photos.map((photo, index) => (
          <li key={photo.key} className="wizard__photo" data-photo={photo.key}>
            <div className="wizard__thumb">
              {photo.preview ? (
                <img src={photo.preview} alt="" width={160} height={120} />
              ) : (
                <span className="listing-photo listing-photo--processing" aria-hidden="true">
                  {photo.id ? 'Uploaded' : ''}
                </span>
              )}
            </div>
            <div className="wizard__photo-body">
              <p className="wizard__photo-name">{photo.name}</p>
              {photo.error ? (
                <p className="field__error" role="alert">
                  {photo.error}
                </p>
              ) : photo.id ? (
                index === 0 && <span className="badge wizard__main">Main photo</span>
              ) : (
                <>
                  <progress max={100} value={Math.round(photo.progress * 100)} aria-label={`Uploading ${photo.name}`} />
                  <span className="wizard__progress">{Math.round(photo.progress * 100)}%</span>
                </>
              )}
              <div className="wizard__photo-actions">
                <button
                  type="button"
                  className="btn btn--small btn--ghost"
                  disabled={index === 0}
                  aria-label={`Move ${photo.name} earlier`}
                  onClick={() => dispatch({ type: 'photoMoved', key: photo.key, to: index - 1 })}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="btn btn--small btn--ghost"
                  disabled={index === photos.length - 1}
                  aria-label={`Move ${photo.name} later`}
                  onClick={() => dispatch({ type: 'photoMoved', key: photo.key, to: index + 1 })}
                >
                  →
                </button>
                {index > 0 && (
                  <button
                    type="button"
                    className="btn btn--small btn--ghost"
                    onClick={() => dispatch({ type: 'photoMoved', key: photo.key, to: 0 })}
                  >
                    Make main photo
                  </button>
                )}
                <button type="button" className="btn btn--small btn--ghost text-danger" onClick={() => onRemove(photo)}>
                  Remove
                </button>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function AttributeInput({
  slug,
  field,
  value,
  invalid,
  onChange,
}: {
  slug: string;
  field: CategoryField;
  value: string;
  invalid: boolean;
  onChange(value: string): void;
}) {
  const common = {
    className: 'field__input',
    id: `attr-${slug}-${field.key}`,
    'data-attribute': field.key,
    value,
    'aria-invalid': invalid || undefined,
  };
  if (field.kind === 'list') {
    return <textarea {...common} rows={3} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
  if (field.kind === 'choices') {
    // Ticked keys kept joined by commas (the draft holds text), in the declared order.
    const ticked = new Set(choicesOf(value) ?? []);
    const toggle = (key: string, on: boolean) =>
      onChange(
        Object.keys(field.options)
          .filter((option) => (option === key ? on : ticked.has(option)))
          .join(','),
      );
    return (
      <div
        className="wizard__choices"
        id={common.id}
        data-attribute={field.key}
        role="group"
        aria-label={field.label}
        aria-invalid={common['aria-invalid']}
      >
        {Object.entries(field.options).map(([key, label]) => (
          <label key={key} className="wizard__check">
            <input type="checkbox" value={key} checked={ticked.has(key)} onChange={(event) => toggle(key, event.currentTarget.checked)} />{' '}
            {label}
          </label>
        ))}
      </div>
    );
  }
  if (field.kind === 'choice' || field.kind === 'yes-no') {
    const options = field.kind === 'choice' ? Object.entries(field.options) : [['yes', 'Yes'] as const, ['no', 'No'] as const];
    return (
      <select {...common} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">Not given</option>
        {options.map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      {...common}
      type={field.kind === 'date' ? 'date' : field.kind === 'text' ? 'text' : 'number'}
      {...(field.kind === 'integer' || field.kind === 'decimal'
        ? { min: field.min, max: field.max, step: field.kind === 'integer' ? 1 : 'any', inputMode: 'decimal' as const }
        : {})}
      {...(field.kind === 'text' ? { maxLength: field.maxLength } : {})}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** Step 2: type, title, category, price, place, and the chosen category's own (optional) details. */
/** One of the draft's selects: its label, its choices and its error; a change goes to the wizard's machine. */
function DraftSelect({
  state,
  dispatch,
  name,
  id = `wizard-${name}`,
  label,
  placeholder,
  choices,
}: {
  state: WizardState;
  dispatch: Dispatch;
  name: 'category' | 'subcategory' | 'price_unit' | 'vat' | 'wanted_radius';
  id?: string;
  label: string;
  placeholder?: string;
  choices: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        className="field__input"
        id={id}
        name={name}
        value={state.draft[name]}
        aria-invalid={state.errors[name] ? true : undefined}
        onChange={(event) => dispatch({ type: 'fieldChanged', name, value: event.currentTarget.value })}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <FieldError errors={state.errors} field={name} />
    </div>
  );
}

export function DetailsStep({ state, dispatch, placeRef }: { state: WizardState; dispatch: Dispatch; placeRef: Ref<PlacePickerHandle> }) {
  const { draft, errors } = state;
  const rent = draft.type === 'rent';
  const wanted = draft.type === 'wanted';
  const invalid = (field: string) => (errors[field] ? true : undefined);
  const groups = (rent ? [draft.subcategory, 'rentals'] : [draft.category]).filter(
    (slug): slug is keyof typeof CATEGORY_FIELDS => slug in CATEGORY_FIELDS,
  );
  return (
    <section className="wizard__panel" data-step="1" aria-labelledby="step-1-title">
      <h2 id="step-1-title" tabIndex={-1}>
        Basic Details
      </h2>
      <fieldset className="field wizard__type">
        <legend className="field__label">Listing type</legend>
        {LISTING_TYPES.map((type) => (
          <label key={type} className="chip">
            <input
              type="radio"
              name="type"
              value={type}
              checked={draft.type === type}
              onChange={() => dispatch({ type: 'typeChosen', value: type })}
            />{' '}
            {TYPE_LABELS[type]}
          </label>
        ))}
        <FieldError errors={errors} field="type" />
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor="wizard-title">
          Title
        </label>
        <input
          className="field__input"
          id="wizard-title"
          name="title"
          maxLength={100}
          placeholder="e.g. Massey Ferguson 5713 SL, 2019"
          value={draft.title}
          aria-invalid={invalid('title')}
          onChange={(event) => dispatch({ type: 'fieldChanged', name: 'title', value: event.currentTarget.value })}
        />
        <FieldError errors={errors} field="title" />
      </div>
      {rent ? (
        <DraftSelect
          state={state}
          dispatch={dispatch}
          name="subcategory"
          label="What are you renting out?"
          placeholder="Select a category"
          choices={categoryChoices('rent')}
        />
      ) : (
        <DraftSelect
          state={state}
          dispatch={dispatch}
          name="category"
          label="Category"
          placeholder="Select a category"
          choices={categoryChoices('sale')}
        />
      )}
      <div className="wizard__row">
        <div className="field">
          <label className="field__label" htmlFor="wizard-price">
            {wanted ? 'Most you will pay (£)' : 'Price (£)'}
          </label>
          <input
            className="field__input"
            id="wizard-price"
            name="price"
            inputMode="decimal"
            placeholder="e.g. 38500"
            value={draft.price}
            aria-invalid={invalid('price')}
            onChange={(event) => dispatch({ type: 'fieldChanged', name: 'price', value: event.currentTarget.value })}
          />
          <FieldError errors={errors} field="price" />
        </div>
        <DraftSelect
          state={state}
          dispatch={dispatch}
          name="price_unit"
          id="wizard-unit"
          label="Price is"
          choices={priceUnits(draft.type, rent ? draft.subcategory : draft.category).map((unit) => ({
            value: unit,
            label: PRICE_UNITS[unit as keyof typeof PRICE_UNITS],
          }))}
        />
        <DraftSelect
          state={state}
          dispatch={dispatch}
          name="vat"
          label="VAT"
          choices={Object.entries(VAT_OPTIONS).map(([value, label]) => ({ value, label }))}
        />
      </div>
      <PlacePickerField
        ref={placeRef}
        id="wizard-location"
        label="Location"
        labelName="location"
        idName="place_id"
        initial={{ location: draft.location, placeId: draft.place_id }}
        onChange={({ location, placeId }) => dispatch({ type: 'placeChanged', location, placeId })}
      />
      <FieldError errors={errors} field="location" />
      {wanted && (
        <>
          <DraftSelect
            state={state}
            dispatch={dispatch}
            name="wanted_radius"
            label="Sellers within"
            choices={RADIUS_CHOICES.map((miles) => ({ value: String(miles), label: `${miles} miles` }))}
          />
          <WantedRanges state={state} dispatch={dispatch} />
        </>
      )}
      {groups.map((slug) => (
        <fieldset key={slug} className="wizard__attributes" data-attributes={slug}>
          <legend className="field__label">{categoryName(slug)} details (optional)</legend>
          <div className="wizard__row">
            {draftFields(draft)
              .filter((field) => CATEGORY_FIELDS[slug].includes(field))
              .map((field) => (
                <div key={field.key} className="field">
                  <label className="field__label" htmlFor={`attr-${slug}-${field.key}`}>
                    {field.label}
                    {'unit' in field && field.unit ? ` (${field.unit})` : ''}
                  </label>
                  <AttributeInput
                    slug={slug}
                    field={field}
                    value={draft.attributes[field.key] ?? ''}
                    invalid={Boolean(errors[`attributes.${field.key}`])}
                    onChange={(value) => dispatch({ type: 'attributeChanged', key: field.key, value })}
                  />
                  {field.hint && <p className="wizard__hint">{field.hint}</p>}
                  <FieldError errors={errors} field={`attributes.${field.key}`} />
                </div>
              ))}
          </div>
          {slug === 'livestock' && <LivestockMovementNote />}
        </fieldset>
      ))}
    </section>
  );
}

/** A wanted ad's ranges: each of the category's range fields as from and to (either may be left empty). */
function WantedRanges({ state, dispatch }: { state: WizardState; dispatch: Dispatch }) {
  const fields = wantedRangeFields(state.draft);
  if (fields.length === 0) return null;
  return (
    <fieldset className="wizard__attributes" data-wanted-ranges>
      <legend className="field__label">What you want (leave a bound empty for any)</legend>
      <div className="wizard__row">
        {fields.flatMap((field) =>
          (['min', 'max'] as const).map((bound) => {
            const name = `${field.key}_${bound}`;
            const error = `wanted_ranges.${name}`;
            return (
              <div key={name} className="field">
                <label className="field__label" htmlFor={`wanted-${name}`}>
                  {field.label}
                  {field.unit ? ` (${field.unit})` : ''} {bound === 'min' ? 'from' : 'to'}
                </label>
                <input
                  className="field__input"
                  id={`wanted-${name}`}
                  type="number"
                  inputMode="decimal"
                  min={field.min}
                  max={field.max}
                  step={field.kind === 'integer' ? 1 : 'any'}
                  value={state.draft.wanted_ranges[name] ?? ''}
                  aria-invalid={state.errors[error] ? true : undefined}
                  onChange={(event) => dispatch({ type: 'rangeChanged', name, value: event.currentTarget.value })}
                />
                <FieldError errors={state.errors} field={error} />
              </div>
            );
          }),
        )}
      </div>
    </fieldset>
  );
}

/** Step 3: the description, with its length as it is typed. */
export function DescriptionStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch }) {
  const { draft, errors } = state;
  return (
    <section className="wizard__panel" data-step="2" aria-labelledby="step-2-title">
      <h2 id="step-2-title" tabIndex={-1}>
        Description
      </h2>
      <div className="field">
        <label className="field__label" htmlFor="wizard-description">
          Description
        </label>
        <textarea
          className="field__input wizard__description"
          id="wizard-description"
          name="description"
          maxLength={DESCRIPTION_MAX}
          rows={10}
          placeholder="Condition, history, what is included, how to view or collect…"
          value={draft.description}
          aria-invalid={errors['description'] ? true : undefined}
          onChange={(event) => dispatch({ type: 'fieldChanged', name: 'description', value: event.currentTarget.value })}
        />
        <p className="wizard__counter" aria-live="polite" data-counter>
          {draft.description.length}/{DESCRIPTION_MAX} characters
        </p>
        <FieldError errors={errors} field="description" />
      </div>
    </section>
  );
}

/** Step 4: what will be published, and the over-18 declaration before a person's first listing. */
export function ReviewStep({ state, dispatch }: { state: WizardState; dispatch: Dispatch }) {
  const { draft, errors } = state;
  const price = parsePrice(draft.price);
  const category =
    draft.type === 'rent' ? `Rentals: ${categoryName(draft.subcategory) ?? 'not chosen'}` : (categoryName(draft.category) ?? 'Not chosen');
  const rows: Array<[string, string]> = [
    ['Listing type', draft.type ? TYPE_LABELS[draft.type] : ''],
    ['Title', draft.title],
    ['Category', category],
    ['Price', price !== undefined && !Number.isNaN(price) ? formatListingPrice(price, draft.price_unit, draft.vat) : ''],
    ['VAT', VAT_OPTIONS[draft.vat as keyof typeof VAT_OPTIONS] ?? ''],
    ['Location', draft.location],
    ...(draft.type === 'wanted'
      ? ([['Sellers within', `${draft.wanted_radius} miles`], ...wantedRangeRows(draft)] as Array<[string, string]>)
      : []),
    ['Photos', `${draft.images.length} of ${IMAGE_LIMITS.maxFiles}`],
  ];
  return (
    <section className="wizard__panel" data-step="3" aria-labelledby="step-3-title">
      <h2 id="step-3-title" tabIndex={-1}>
        Review & Submit
      </h2>
      <div className="wizard__review" data-review>
        <dl className="listing-facts">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value || 'Not given'}</dd>
            </div>
          ))}
          {/* The details as the listing will show them (labels of choices, units). */}
          {reviewFacts(draft).map((fact) => (
            <div key={fact.label}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
        <h3>Description</h3>
        <p className="listing-page__description">{draft.description || 'Not given'}</p>
      </div>
      {state.askDeclaration && (
        <div className="field wizard__declaration" data-declaration>
          <label className="wizard__check">
            <input
              type="checkbox"
              name="confirm_over_18"
              checked={state.declared}
              onChange={(event) => dispatch({ type: 'declarationChanged', checked: event.currentTarget.checked })}
            />{' '}
            {LISTING_TEXTS.overEighteenLabel}
          </label>
          <p className="wizard__hint">
            Our <a href="/terms#accounts">terms</a> let only people aged 18 or over post listings. We ask once, before your first listing.
          </p>
          <FieldError errors={errors} field="confirm_over_18" />
        </div>
      )}
      {state.askSellerType && (
        <fieldset className="field wizard__declaration" data-seller-type>
          <legend>{SELLER_TEXTS.typeLabel}</legend>
          {SELLER_TYPES.map((choice) => (
            <label key={choice} className="wizard__check">
              <input
                type="radio"
                name="seller_type"
                value={choice}
                checked={state.sellerType === choice}
                onChange={() => dispatch({ type: 'sellerTypeChanged', value: choice })}
              />{' '}
              {SELLER_TEXTS[choice]}
            </label>
          ))}
          <p className="wizard__hint">
            Buyers have more rights when they buy from a trader, so we show this on your listings. We ask once.
          </p>
          <FieldError errors={errors} field="seller_type" />
          {state.sellerType === 'trade' && (
            <label className="field">
              <span>Business name</span>
              <input
                name="business_name"
                className="field__input"
                maxLength={TRADE_RULES.business_name.maxLength}
                value={state.businessName}
                onChange={(event) => dispatch({ type: 'businessNameChanged', value: event.currentTarget.value })}
              />
              <FieldError errors={errors} field="business_name" />
            </label>
          )}
        </fieldset>
      )}
    </section>
  );
}

/** A wanted ad's ranges as the review shows them: "Age: 6 to 9 months", "Head count: from 20 head". */
function wantedRangeRows(draft: WizardState['draft']): Array<[string, string]> {
  return wantedRangeFields(draft).flatMap((field): Array<[string, string]> => {
    const min = draft.wanted_ranges[`${field.key}_min`]?.trim();
    const max = draft.wanted_ranges[`${field.key}_max`]?.trim();
    if (!min && !max) return [];
    const unit = field.unit ? ` ${field.unit}` : '';
    return [[field.label, min && max ? `${min} to ${max}${unit}` : min ? `from ${min}${unit}` : `up to ${max}${unit}`]];
  });
}

/** The draft's category details as its listing will show them (labels of choices, units, a test's "valid until"). */
function reviewFacts(draft: WizardState['draft']) {
  const payload = listingPayload(draft);
  return categoryFacts({
    category_slug: payload.category,
    rent_subcategory: payload.subcategory ?? null,
    attributes: payload.attributes ?? {},
  });
}

/** What a buyer must check before moving animals, and whose word the details are (the listing page says the same). */
function LivestockMovementNote() {
  return (
    <div className="wizard__note" data-livestock-movement>
      <p>{LIVESTOCK_MOVEMENT.declaration}</p>
      <p>{LIVESTOCK_MOVEMENT.beforeMoving}</p>
      <ul>
        {LIVESTOCK_MOVEMENT.guidance.map((page) => (
          <li key={page.name}>
            <a href={page.url} rel="noopener" target="_blank">
              {page.name}
            </a>{' '}
            ({page.publisher})
          </li>
        ))}
      </ul>
    </div>
  );
}
