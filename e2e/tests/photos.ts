import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (8-bit RGB, every pixel drawn): a field under a sky, in the given hue, so each
 * photo is distinguishable. Made with node:zlib only; sharp decodes it like any camera's file.
 */
export function photoPng(width: number, height: number, hue = 0): Buffer {
  const rows: Buffer[] = [];
  const horizon = Math.round(height * 0.45);
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0 (none), then RGB
    for (let x = 0; x < width; x += 1) {
      const sky = y < horizon;
      const shade = Math.round((x / width) * 40);
      const r = sky ? 120 + shade : (60 + hue + shade) % 256;
      const g = sky ? 170 + shade : (140 + shade + ((y >> 3) % 2) * 20) % 256;
      const b = sky ? 220 : (40 + hue * 2) % 256;
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
