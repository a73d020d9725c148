import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Browser } from './accounts.js';
import { eventually } from './test-app.js';

/** A photo as phones take them: noisy enough to compress like one, optionally carrying GPS EXIF. */
export async function jpegBytes(width: number, height: number, options: { exifGps?: boolean; orientation?: number } = {}): Promise<Buffer> {
  let image = sharp(await noise(width, height)).jpeg({ quality: 85 });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  if (options.exifGps) {
    image = image.withExifMerge({
      IFD0: { Make: 'FarmPhone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '50/1 43/1 12/1', GPSLongitudeRef: 'W', GPSLongitude: '3/1 31/1 45/1' },
    });
  }
  return image.toBuffer();
}

export const pngBytes = async (width: number, height: number) =>
  sharp(await noise(width, height))
    .png()
    .toBuffer();
export const webpBytes = async (width: number, height: number) =>
  sharp(await noise(width, height))
    .webp()
    .toBuffer();
export const gifBytes = async (width: number, height: number) =>
  sharp(await noise(width, height))
    .gif()
    .toBuffer();

/** The EXIF GPS pointer tag (0x8825), as it appears in a little-endian EXIF block. */
export const hasGpsTag = (exif: Buffer | undefined) => exif !== undefined && exif.includes(Buffer.from([0x25, 0x88]));

async function noise(width: number, height: number): Promise<Buffer> {
  // A small noise tile scaled up: photo-like entropy without generating megabytes of random data.
  const tile = 64;
  const raw = randomBytes(tile * tile * 3);
  return sharp(raw, { raw: { width: tile, height: tile, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export interface FilePart {
  field?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body and its Content-Type header. */
export function multipartBody(parts: FilePart[]): { body: Buffer; contentType: string } {
  const boundary = `----fieldmarket${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field ?? 'images'}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType}\r\n\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadedImageBody {
  id: string;
  status: string;
  url: string | null;
}

/** POSTs files to the upload route as `browser`. */
export function postImages(browser: Browser, parts: FilePart[]) {
  const { body, contentType } = multipartBody(parts);
  return browser.send('POST', '/api/upload/multiple', body, { 'content-type': contentType });
}

/** Makes a value once, when first asked for. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * The photos uploadPhotos sends, made once per test file: each upload is a new image of its own to the
 * product (nothing there compares files), and making the noise and encoding it cost as much as a small
 * photo's processing.
 */
const samplePhoto = { small: once(() => jpegBytes(400, 300)), large: once(() => jpegBytes(1200, 900)) };

/**
 * Uploads `n` photos (1200x900 JPEG) and, unless `ready: false`, waits until each is ready, i.e.
 * every variant is served; returns their ids in upload order. A listing can be posted with photos
 * still being processed, so tests that do not look at the photos need not wait.
 */
export async function uploadPhotos(browser: Browser, n: number, { ready = true } = {}): Promise<string[]> {
  // Small when nobody waits for them, so their processing never holds up the queue for the next test.
  const data = await (ready ? samplePhoto.large : samplePhoto.small)();
  const parts = Array.from({ length: n }, (_, i) => ({ filename: `photo-${i}.jpg`, contentType: 'image/jpeg', data }));
  const response = await postImages(browser, parts);
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  const ids = response.json<{ data: { images: UploadedImageBody[] } }>().data.images.map((image) => image.id);
  if (!ready) return ids;
  for (const id of ids) {
    await eventually(async () => {
      for (const file of ['320.webp', '640.webp', '1200.webp', '320.avif', '640.avif', '1200.avif']) {
        const served = await browser.send('GET', `/media/images/${id}/${file}`);
        if (served.statusCode !== 200) throw new Error(`${id}/${file} not served yet`);
      }
    }, 30_000);
  }
  return ids;
}
