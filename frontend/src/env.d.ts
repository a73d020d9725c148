import type { PageContext } from '@contracts/page-context';

declare global {
  namespace App {
    interface Locals {
      /** Handed to each page rendered on the server by the web process (backend/src/web/frontend.ts); absent under astro dev. */
      page?: PageContext;
    }
  }
}
