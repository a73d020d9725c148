import { ApiProperty } from '@nestjs/swagger';
import type { ImageStatus } from '../image.entity.js';

export class ImageVariantView {
  @ApiProperty({ example: '/media/images/0b9c.../640.webp' })
  url!: string;

  @ApiProperty()
  width!: number;

  @ApiProperty()
  height!: number;

  @ApiProperty({ enum: ['image/webp', 'image/avif'] })
  type!: 'image/webp' | 'image/avif';
}

/** An image as pages show it: `url` is the 640-pixel WebP (or the largest narrower one) once ready. */
export class ImageView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    enum: ['processing', 'ready', 'failed'],
    description: 'Variants are made in the background; failed: not a decodable image',
  })
  status!: ImageStatus;

  @ApiProperty({ type: [ImageVariantView], description: 'Every published size and format (empty until ready)' })
  variants!: ImageVariantView[];

  @ApiProperty({ type: String, nullable: true, description: 'The 640-pixel WebP (or the largest narrower one); null until ready' })
  url!: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Upright width of the original; null until ready' })
  width!: number | null;

  @ApiProperty({ type: Number, nullable: true })
  height!: number | null;
}

export class UploadedImage extends ImageView {
  @ApiProperty({ description: 'Order within this upload (0 first); a listing orders images by the ids it is given' })
  position!: number;
}

export class UploadResponse {
  @ApiProperty({
    type: [UploadedImage],
    description:
      'One per file, in the order sent, status "processing": post the ids with the listing; an IMAGE_PROCESSED socket event says when each is ready',
  })
  images!: UploadedImage[];

  @ApiProperty({
    type: [String],
    description: 'Always empty: URLs exist only once processing is done (kept for older clients that read `urls`)',
  })
  urls!: string[];
}
