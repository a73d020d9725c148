/** Photo uploads (SPEC "Images" and "Limits"): the facts the API enforces and the browser checks first. */
export const IMAGE_LIMITS = {
  /** Bytes per file (SPEC: 5 MB, 5242880 bytes); a file of exactly this size is accepted. */
  maxFileBytes: 5_242_880,
  /** Files per upload request, and images per listing. */
  maxFiles: 8,
  /** Decoded pixels per image: refuses decompression bombs (a tiny file that decodes to gigabytes). */
  maxPixels: 40_000_000,
} as const;

export const IMAGE_MESSAGES = {
  wrongType: 'Please upload only JPEG, PNG, or WebP images.',
  tooLarge: 'Image size must be less than 5MB.',
  tooMany: 'You can upload a maximum of 8 images.',
  tooManyPixels: 'Image dimensions are too large (the limit is 40 megapixels).',
  noFiles: 'Please choose at least one image to upload.',
  notMultipart: 'Send the images as multipart/form-data in the "images" field.',
  notYours: 'One of these images is not yours or no longer exists.',
  duplicate: 'The same image is listed twice.',
  rateLimited: (wait: string) => `You have uploaded too many images. Please try again in ${wait}.`,
} as const;

/** The content types an upload may have; judged from the bytes, never from the name or declared type. */
export const ACCEPTED_IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type AcceptedImageFormat = (typeof ACCEPTED_IMAGE_FORMATS)[number];
