import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isUuid } from '../contracts/uuid.js';

// The rule lives with the contracts so the frontend's pages check ids by the same one.
export { isUuid };

/** A request field holding an id (or, with `each`, a list of ids) by the rule in contracts/uuid.ts. */
export function IsUuid(message: string, options: Pick<ValidationOptions, 'each'> = {}): PropertyDecorator {
  return ValidateBy({ name: 'isUuid', validator: { validate: isUuid, defaultMessage: () => message } }, options);
}
