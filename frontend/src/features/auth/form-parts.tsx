import { useRef, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  id: string;
  name: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function TextField({ id, name, label, error, hint, inputRef, ...input }: FieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        name={name}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

/** A password input with a Show/Hide toggle (SPEC §2 "Sign-up": show/hide toggles). */
export function PasswordField(props: FieldProps) {
  const [visible, setVisible] = useState(false);
  const { id, label, error, hint, inputRef, name, ...input } = props;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="password-input">
        <input
          {...input}
          ref={inputRef}
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <button
          type="button"
          className="password-input__toggle"
          aria-pressed={visible}
          aria-controls={id}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? 'Hide' : 'Show'}
          <span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

/**
 * The form's message region: always in the page (so screen readers announce what appears in it),
 * an alert for errors, a polite status for successes.
 */
export function FormMessage({ error, success, testId }: { error?: string | null; success?: string | null; testId?: string }) {
  return (
    <>
      <div role="alert" className="form-message" data-testid={testId ? `${testId}-error` : undefined}>
        {error && <p className="alert alert--danger">{error}</p>}
      </div>
      <div role="status" className="form-message" data-testid={testId ? `${testId}-success` : undefined}>
        {success && <p className="alert alert--success">{success}</p>}
      </div>
    </>
  );
}

/** Reads a form's text fields by name (uncontrolled inputs keep whatever was typed before hydration). */
export function readForm<F extends string>(form: HTMLFormElement, fields: readonly F[]): Record<F, string> {
  const data = new FormData(form);
  const values = {} as Record<F, string>;
  for (const field of fields) {
    const value = data.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** Focuses the first field, in `order`, that has an error. */
export function focusFirstError<F extends string>(form: HTMLFormElement | null, order: readonly F[], errors: Partial<Record<F, string>>) {
  const first = order.find((field) => errors[field]);
  if (!first || !form) return;
  const element = form.elements.namedItem(first);
  if (element instanceof HTMLElement) element.focus();
}

/** A field's hint and error lines, referenced by its aria-describedby. */
function FieldNotes({ hint, hintId, error, errorId }: { hint?: ReactNode; hintId: string; error?: string; errorId: string }) {
  return (
    <>
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </>
  );
}

/**
 * A form's fields, checked on submit by `validate` with the shared rules: `check` shows every error,
 * focuses the first, and gives the values only when all are valid.
 */
export function useCheckedForm<F extends string>(
  fields: readonly F[],
  validate: (values: Record<F, string>) => Partial<Record<F, string>>,
) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const check = (form: HTMLFormElement): Record<F, string> | null => {
    const values = readForm(form, fields);
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length === 0) return values;
    focusFirstError(formRef.current ?? form, fields, found);
    return null;
  };
  return { formRef, errors, setErrors, check };
}

/**
 * A new password and its confirmation (sign-up, reset, change): the shared rule's hint, errors on
 * the fields named `password` and `confirmPassword`.
 */
export function NewPasswordFields({
  idPrefix,
  label = 'New password',
  errors,
}: {
  idPrefix: string;
  label?: string;
  errors: { password?: string | undefined; confirmPassword?: string | undefined };
}) {
  return (
    <>
      <PasswordField
        id={`${idPrefix}-password`}
        name="password"
        label={label}
        autoComplete="new-password"
        required
        hint="At least 6 characters; common passwords are refused."
        error={errors.password}
      />
      <PasswordField
        id={`${idPrefix}-confirm`}
        name="confirmPassword"
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
      />
    </>
  );
}
