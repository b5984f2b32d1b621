import sharp from 'sharp';

/** A plain PNG of one colour, `width` × `height`, for upload and import tests. */
export function testPng(width: number, height: number, colour = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A JPEG stored sideways with EXIF orientation 6 (a phone photo): upright it is `height` × `width`. */
export function testSidewaysJpeg(width: number, height: number, colour = '#2980b9'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}
