// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { cspDigestMemo } from './scripts/csp-digest-memo.mjs';
import { pageScriptChunks } from './scripts/page-script-chunk.mjs';

const pageScripts = pageScriptChunks();

// Pages are prerendered by default. The NestJS backend mounts the built handler
// (dist/server/entry.mjs) in middleware mode and serves dist/client statically.
export default defineConfig({
  // staticHeaders: the Content-Security-Policy of each prerendered page goes to dist/_headers.json,
  // which the web process sends as a header (backend/src/web), instead of a <meta> tag that could
  // not carry frame-ancestors.
  adapter: node({ mode: 'middleware', staticHeaders: true }),
  // Islands are React components. Only pages with islands (and a signed-in visitor's header bells,
  // mounted by script) load React; static and content pages ship none.
  integrations: [react()],
  // The origin of prerendered pages' canonical links when the build has no PUBLIC_URL (lib/site-origin.ts).
  site: 'https://fieldmarket.co.uk',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  security: {
    // Astro adds script-src and style-src with the hashes of every script and style it emits
    // (islands' hydration scripts included); inline scripts of our own declare theirs with
    // Astro.csp. No 'unsafe-inline' anywhere.
    csp: {
      directives: [
        "default-src 'self'",
        // blob: for the wizard's previews of photos being uploaded (URL.createObjectURL).
        "img-src 'self' data: blob:",
        // 'self' covers same-origin WebSocket (socket.io) in CSP 3 browsers.
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  // No Markdown pages; Shiki's inline styles would not pass the CSP (and Astro warns about them).
  markdown: { syntaxHighlight: false },
  // Pin the tsconfig: otherwise Vite picks the monorepo root one for files outside src/ and follows its
  // project references into backend/ and workers/, which the frontend build must not depend on.
  vite: {
    tsconfig: 'tsconfig.json',
    // cspDigestMemo: each page's style and script hashes computed once, not on every request.
    plugins: [pageScripts.plugin, cspDigestMemo()],
    build: {
      rolldownOptions: {
        output: {
          // React's runtime in one chunk of its own, shared by every island of a page and cached
          // across pages (its name stays put while our islands change).
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
              // The small modules that pages' own scripts share (the stores, the API client, helpers):
              // a chunk or two instead of a dozen files, each with its own request and headers
              // (scripts/page-script-chunk.mjs says which). What the layout's script uses, every page loads.
              { name: 'site', test: pageScripts.layout, minShareCount: 2, priority: 1 },
              { name: 'cards', test: pageScripts.cards, minShareCount: 2, priority: 1 },
            ],
          },
        },
      },
    },
  },
  // The server bundle imports html-escaper; frontend/package.json pins the 3.x Astro needs, because the
  // hoisted copy at the root is jest's 2.x and would otherwise be the one found at run time.
});
