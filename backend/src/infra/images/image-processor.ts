import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { ConcurrencyLimit } from '../../common/concurrency-limit.js';
import { ACCEPTED_IMAGE_FORMATS, type AcceptedImageFormat } from '../../contracts/images.js';

export type VariantFormat = 'webp' | 'avif';

export interface ProbedImage {
  format: AcceptedImageFormat;
  /** Upright dimensions, after the EXIF orientation is applied. */
  width: number;
  height: number;
}

export interface RenderedVariant {
  width: number;
  height: number;
  format: VariantFormat;
  data: Buffer;
}

export type ProbeResult = { ok: true; image: ProbedImage } | { ok: false; reason: 'wrong-type' | 'too-many-pixels' };

/**
 * AVIF encoding dominates the cost of a photo. Effort 0 takes a fifth of effort 2's time for files
 * within 10% of its size (a 4000x3000 photo's 1280-pixel AVIF: 146 against 799 ms, 426 against 437
 * kB), and keeps eight 5 MB photos under 3 seconds from upload to ready (bench/images.mjs).
 */
const AVIF_EFFORT = 0;
/** WebP likewise: effort 0 is 2.6 times faster than the default 4 for the same size on the bench's photo. */
const WEBP_EFFORT = 0;

/** Thrown when sharp cannot decode an image; the caller marks it failed rather than retrying. */
export class UndecodableImageError extends Error {}

const MAGIC: Record<AcceptedImageFormat, (bytes: Buffer) => boolean> = {
  jpeg: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  webp: (b) => b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP',
};

/**
 * Everything the application does with sharp, behind one class: what an uploaded file really is,
 * and its published variants. Nothing else imports sharp.
 */
export class ImageProcessor {
  /** sharp operations of render() under way at once, across every job of the process. */
  private readonly renderThreads: ConcurrencyLimit;

  /**
   * `renderThreads`: how many of libuv's threads (UV_THREADPOOL_SIZE, 4 by default) variants may
   * hold at once. Each sharp operation holds one until it is done, and so does every file read or
   * write and probe; with them all taken by resizing, an upload's checks and writes queued behind
   * seconds of encoding. Keep it below the pool's size so a request always finds a thread.
   */
  constructor(
    private readonly maxPixels: number,
    renderThreads: number,
  ) {
    this.renderThreads = new ConcurrencyLimit(renderThreads);
  }

  /**
   * Judges a file by its content only: the magic bytes must name an accepted format, and sharp
   * must read a header of that same format. Decoding is left to render (a worker's job).
   */
  async probe(bytes: Buffer): Promise<ProbeResult> {
    const format = ACCEPTED_IMAGE_FORMATS.find((f) => MAGIC[f](bytes));
    if (!format) return { ok: false, reason: 'wrong-type' };
    let metadata: Metadata;
    try {
      metadata = await sharp(bytes).metadata();
    } catch {
      return { ok: false, reason: 'wrong-type' };
    }
    if (metadata.format !== format || !metadata.width || !metadata.height) return { ok: false, reason: 'wrong-type' };
    // Animated WebP: every page counts towards the decoded size.
    if (metadata.width * metadata.height * (metadata.pages ?? 1) > this.maxPixels) return { ok: false, reason: 'too-many-pixels' };
    const upright = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
    return { ok: true, image: { format, width: upright.width, height: upright.height } };
  }

  /**
   * The published copies: turned upright by the EXIF orientation, every piece of metadata
   * (EXIF with GPS, XMP, ICC) dropped, at each of `widths` no wider than the original (plus the
   * original width when it is narrower than the largest), in each format. Decodes once.
   */
  async render(bytes: Buffer, widths: readonly number[], formats: readonly VariantFormat[]): Promise<RenderedVariant[]> {
    let base: { data: Buffer; info: OutputInfo };
    try {
      base = await this.renderThreads.run(() =>
        sharp(bytes, { limitInputPixels: this.maxPixels, failOn: 'error' })
          .autoOrient()
          .resize({ width: Math.max(...widths), withoutEnlargement: true })
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true }),
      );
    } catch (error) {
      throw new UndecodableImageError(error instanceof Error ? error.message : String(error));
    }
    const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
    const targets = [...new Set([...widths.filter((w) => w < raw.width), Math.min(raw.width, Math.max(...widths))])].sort((a, b) => a - b);
    // Every size and format at once, as far as renderThreads allows: each encode is single-threaded
    // in libvips, so awaiting them one by one would leave all but one core idle.
    const sizes = await Promise.all(
      targets.map(async (width) => {
        const resized = await this.renderThreads.run(() =>
          sharp(base.data, { raw }).resize({ width }).raw().toBuffer({ resolveWithObject: true }),
        );
        const source = () =>
          sharp(resized.data, { raw: { width: resized.info.width, height: resized.info.height, channels: raw.channels } });
        return Promise.all(
          formats.map(async (format): Promise<RenderedVariant> => {
            const data = await this.renderThreads.run(() =>
              format === 'webp'
                ? source().webp({ quality: 80, effort: WEBP_EFFORT }).toBuffer()
                : source().avif({ quality: 50, effort: AVIF_EFFORT }).toBuffer(),
            );
            return { width: resized.info.width, height: resized.info.height, format, data };
          }),
        );
      }),
    );
    return sizes.flat();
  }
}
