declare namespace App {
  interface Locals {
    /** Handed to each page rendered on the server by the web process (backend/src/web/frontend.ts); absent under astro dev. */
    page?: import('../../backend/src/contracts/page-context').PageContext;
  }
}
