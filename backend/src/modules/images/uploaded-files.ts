import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '../../contracts/images.js';

/** The form field the files arrive in (repeated). */
export const IMAGES_FIELD = 'images';

/** Room for the multipart framing around the largest allowed upload. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Reads the files of the `images` field into memory, bounded: at most 8 files of at most 5 MB
 * each (busboy stops storing a file at the limit, and the ninth file fails the request), and a
 * Content-Length above what that allows is refused before anything is read. Other fields and
 * other file fields are refused.
 */
export async function readUploadedFiles(request: FastifyRequest): Promise<Buffer[]> {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeException(IMAGE_MESSAGES.notMultipart);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > IMAGE_LIMITS.maxFiles * IMAGE_LIMITS.maxFileBytes + FRAMING_BYTES)
    throw new PayloadTooLargeException(IMAGE_MESSAGES.tooLarge);
  const files: Buffer[] = [];
  try {
    const parts = request.files({
      throwFileSizeLimit: true,
      limits: { files: IMAGE_LIMITS.maxFiles, fileSize: IMAGE_LIMITS.maxFileBytes, fields: 0, parts: IMAGE_LIMITS.maxFiles + 1 },
    });
    for await (const part of parts) {
      if (part.fieldname !== IMAGES_FIELD) throw new BadRequestException(IMAGE_MESSAGES.notMultipart);
      files.push(await part.toBuffer());
    }
  } catch (error) {
    throw uploadError(error);
  }
  return files;
}

function uploadError(error: unknown): unknown {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeException(IMAGE_MESSAGES.tooLarge);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new BadRequestException(IMAGE_MESSAGES.tooMany);
    case 'FST_FIELDS_LIMIT':
      return new BadRequestException(IMAGE_MESSAGES.notMultipart);
    default:
      return error;
  }
}
