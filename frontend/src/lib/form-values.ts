/** The named fields of a form as strings ('' for a missing or file field): for uncontrolled forms, which keep what was typed before hydration. */
export function readFormFields<F extends string>(form: HTMLFormElement, fields: readonly F[]): Record<F, string> {
  const data = new FormData(form);
  const values = {} as Record<F, string>;
  for (const field of fields) {
    const value = data.get(field);
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}
