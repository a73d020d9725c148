/**
 * A Vite plugin and two chunk tests for the client build, from the modules that pages' own
 * <script>s (Astro's `?astro&type=script` entries) import statically:
 *   - `layout`: those of the layout's script (site-shell.ts), which every page loads;
 *   - `cards`: of those the other page scripts import (the home page's featured listings, the browse
 *     page, a category's follow button ...), the layer that shows listings: the API client, listing
 *     cards and helpers, and the contracts cards need (listing-display, not the category fields of
 *     listings.ts, which only the pages that edit or filter by them load). What only the listing page's or the browse page's own features use
 *     (messages, reports, the browse filters' query) is left to Rolldown's own chunks, so the home
 *     page does not fetch them.
 * Grouped into chunks (astro.config.mjs), a visitor's page loads its scripts and a chunk or two
 * instead of a dozen small shared files. Islands' modules (React) and what import() loads later
 * (the signed-in menu and bells) are in neither set, so they stay out of both.
 */
const CARDS =
  /[\\/](?:src[\\/]lib[\\/]|features[\\/]listings[\\/](?:listing-card|listings-api)\.|contracts[\\/](?:listing-display|categories|text-rules)\.|openapi-fetch[\\/])/;

export function pageScriptChunks() {
  const layout = new Set();
  const pages = new Set();
  const isPageScript = (id) => /\.astro\?astro&type=script/.test(id);
  const isLayoutScript = (id) => /[\\/]layouts[\\/]BaseLayout\.astro\?astro&type=script/.test(id);
  /** Fills `into` with every module `from` reaches by static imports. */
  const walk = (context, from, into) => {
    const pending = [...from];
    while (pending.length > 0) {
      const id = pending.pop();
      if (into.has(id)) continue;
      into.add(id);
      pending.push(...(context.getModuleInfo(id)?.importedIds ?? []));
    }
  };
  return {
    plugin: {
      name: 'fieldmarket:page-script-chunks',
      apply: 'build',
      buildEnd() {
        layout.clear();
        pages.clear();
        const scripts = [...this.getModuleIds()].filter(isPageScript);
        walk(this, scripts.filter(isLayoutScript), layout);
        walk(
          this,
          scripts.filter((id) => !isLayoutScript(id)),
          pages,
        );
      },
    },
    layout: (id) => layout.has(id) && !isPageScript(id),
    cards: (id) => pages.has(id) && !layout.has(id) && !isPageScript(id) && CARDS.test(id),
  };
}
