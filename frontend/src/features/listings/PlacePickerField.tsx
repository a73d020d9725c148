import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { RADIUS_CHOICES } from './browse-query';
import { setupPlacePicker } from './place-picker';
import './place-picker.css';

export interface PlaceValue {
  location: string;
  placeId: string;
}

export interface PlacePickerHandle {
  /** A typed name without a choice becomes its best match; the value after it (null when no place matches). */
  resolve(): Promise<PlaceValue | null>;
}

interface Props {
  id: string;
  label: string;
  labelName: string;
  idName: string;
  /** The value when the field appears; the picker owns the text box after that. */
  initial: PlaceValue;
  onChange?(value: PlaceValue): void;
  /** After a place is chosen from the list. */
  onPick?(value: PlaceValue): void;
  /** A radius in miles beside it (`name` and its value), as PlacePicker.astro's `radiusName`. */
  radius?: { name: string; value: string };
}

/**
 * The place combobox of PlacePicker.astro inside an island: the same markup, driven by the same
 * script (setupPlacePicker), reporting the typed text and the chosen place's id on every change.
 */
export const PlacePickerField = forwardRef<PlacePickerHandle, Props>(function PlacePickerField(
  { id, label, labelName, idName, initial, onChange, onPick, radius },
  ref,
) {
  const root = useRef<HTMLDivElement>(null);
  const picker = useRef<ReturnType<typeof setupPlacePicker> | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const picked = useRef(onPick);
  picked.current = onPick;

  const read = (): PlaceValue => ({
    location: root.current?.querySelector<HTMLInputElement>('[data-place-input]')?.value ?? '',
    placeId: root.current?.querySelector<HTMLInputElement>('[data-place-id]')?.value ?? '',
  });

  useEffect(() => {
    if (!root.current) return;
    picker.current = setupPlacePicker(root.current, () => {
      changed.current?.(read());
      picked.current?.(read());
    });
  }, []);

  useImperativeHandle(ref, () => ({
    resolve: async () => {
      const before = read();
      const found = (await picker.current?.resolve()) ?? true;
      const value = read();
      // Only a lookup that filled the place is a change (a server's finding on the field stands otherwise).
      if (value.location !== before.location || value.placeId !== before.placeId) changed.current?.(value);
      return found ? value : null;
    },
  }));

  return (
    <div className="place-picker field" data-place-picker ref={root}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="place-picker__box">
        <input
          className="field__input"
          id={id}
          name={labelName}
          type="text"
          defaultValue={initial.location}
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded="false"
          aria-controls={`${id}-options`}
          placeholder="Town, village or postcode"
          aria-describedby={`${id}-hint`}
          data-place-input
          // After the picker's own listener (it clears the id while the text changes).
          onInput={() => onChange?.(read())}
        />
        <ul className="place-picker__options" id={`${id}-options`} role="listbox" hidden data-place-options></ul>
      </div>
      <p className="place-picker__hint" id={`${id}-hint`}>
        A town, a village, a postcode or an outcode (TA1). Postcodes: ONS, OS and Royal Mail data under the{' '}
        <a href="/about#credits-title">Open Government Licence</a>.
      </p>
      <input type="hidden" name={idName} defaultValue={initial.placeId} data-place-id />
      {radius && (
        <label className="place-picker__radius">
          <span className="field__label">Within</span>
          <select className="field__input" name={radius.name} defaultValue={radius.value} data-place-radius>
            {RADIUS_CHOICES.map((miles) => (
              <option key={miles} value={String(miles)}>
                {miles} miles
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
});
