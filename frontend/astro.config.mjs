// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import preact from '@astrojs/preact';

// Pages are prerendered by default. The NestJS backend mounts the built handler
// (dist/server/entry.mjs) in middleware mode and serves dist/client statically.
export default defineConfig({
  // staticHeaders: the Content-Security-Policy of each prerendered page goes to dist/_headers.json,
  // which the web process sends as a header (backend/src/web), instead of a <meta> tag that could
  // not carry frame-ancestors.
  adapter: node({ mode: 'middleware', staticHeaders: true }),
  // Islands are written against React's API (they import from 'react') and run on preact/compat:
  // the same components for a fraction of react-dom's weight (interactive pages stay under 50 kB
  // of gzipped JS). compat aliases react, react-dom and react/jsx-runtime to Preact.
  integrations: [preact({ compat: true })],
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
  vite: { tsconfig: 'tsconfig.json' },
  // The server bundle imports html-escaper; frontend/package.json pins the 3.x Astro needs, because the
  // hoisted copy at the root is jest's 2.x and would otherwise be the one found at run time.
});
