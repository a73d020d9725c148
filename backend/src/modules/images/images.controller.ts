import { Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExcludeController, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { AcceptsFiles } from '../../common/multipart-body.js';
import { type AuthenticatedRequest, CurrentUser, VerifiedEmail } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { UploadResponse } from './dto/image.response.js';
import { ImagesService } from './images.service.js';
import { MediaFiles } from './media-files.js';
import { IMAGES_FIELD, readUploadedFiles } from './uploaded-files.js';

@ApiTags('images')
@Controller('upload')
export class UploadController {
  constructor(@Inject(ImagesService) private readonly images: ImagesService) {}

  @Post('multiple')
  @HttpCode(201)
  @VerifiedEmail()
  @AcceptsFiles()
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: [IMAGES_FIELD],
      properties: { [IMAGES_FIELD]: { type: 'array', maxItems: 8, items: { type: 'string', format: 'binary' } } },
    },
  })
  @ApiEnvelope(201, UploadResponse, { description: 'Stored; each image is "processing" until its variants are made' })
  @ApiErrorEnvelope(400, 'Not a JPEG, PNG or WebP image (judged by content), no file, or more than 8 files')
  @ApiErrorEnvelope(401, 'Not signed in')
  @ApiErrorEnvelope(403, 'The e-mail address is not confirmed yet')
  @ApiErrorEnvelope(413, 'A file is larger than 5 MB (5242880 bytes), or an image has more than 40 megapixels')
  @ApiErrorEnvelope(415, 'Not multipart/form-data')
  @ApiErrorEnvelope(429, 'Too many images uploaded in the last hour; Retry-After says when to try again')
  async upload(@CurrentUser() user: User, @Req() request: FastifyRequest): Promise<UploadResponse> {
    return this.images.upload(user.id, await readUploadedFiles(request));
  }
}

/**
 * A viewer's own browser keeps a variant for an hour (a phone on one bar of signal does not fetch it again);
 * shared caches (a CDN, a proxy) must ask every time (s-maxage=0), so once staff hide a listing no cache
 * gives its photos to anyone new: the next request is answered 404.
 */
export const MEDIA_CACHE_CONTROL = 'public, max-age=3600, s-maxage=0, must-revalidate';
/** A withheld variant shown to its owner: never stored, by any cache. */
export const OWNER_ONLY_CACHE_CONTROL = 'private, no-store';

/** Published variants: files, outside /api (see common/api-prefix.ts). Originals are never reachable. */
@ApiExcludeController()
@Controller('media/images')
export class MediaController {
  constructor(@Inject(MediaFiles) private readonly media: MediaFiles) {}

  @Get(':id/:file')
  async variant(
    @Param('id') id: string,
    @Param('file') file: string,
    @Req() request: AuthenticatedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const found = await this.media.open(id, file, request.auth?.user.id);
    if (!found) throw new NotFoundException('No such image.');
    await reply
      .header('content-type', found.contentType)
      // A variant never changes, but it must stop being shown once staff hide its listing (issue 23 §5): see
      // MEDIA_CACHE_CONTROL. A withheld one goes to its owner alone, by their session cookie: no cache may keep it.
      .header('cache-control', found.ownerOnly ? OWNER_ONLY_CACHE_CONTROL : MEDIA_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .send(found.stream);
  }
}
