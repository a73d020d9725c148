export const SERVICES_EMPTY = 'No services listed yet.';
