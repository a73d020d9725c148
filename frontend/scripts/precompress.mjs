// Post-build step (npm run build): writes a brotli (quality 11) and a gzip (level 9) copy next to
// each compressible file in dist/client, e.g. index.html.br and index.html.gz. The web process
// serves these as they are (backend/src/web/frontend.ts) instead of compressing every response.
// A copy is kept only when it is smaller than the file itself.
//   node scripts/precompress.mjs [dir]   (default dist/client)
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|ico|webmanifest)$/;
const root = process.argv[2] ?? 'dist/client';

const encoders = {
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gz: (data) => promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }),
};

async function compressibleFiles(dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await compressibleFiles(path)));
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) files.push(path);
  }
  return files;
}

let before = 0;
let written = 0;
for (const file of await compressibleFiles(root)) {
  const data = await readFile(file);
  before += data.length;
  await Promise.all(
    Object.entries(encoders).map(async ([extension, encode]) => {
      const compressed = await encode(data);
      if (compressed.length >= data.length) return;
      await writeFile(`${file}.${extension}`, compressed);
      written += 1;
    }),
  );
}
console.log(`precompressed ${root}: ${written} files written for ${(before / 1024).toFixed(0)} kB of text`);
