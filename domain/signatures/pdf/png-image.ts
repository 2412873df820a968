import { deflateSync, inflateSync } from 'node:zlib';

/** A decoded image, ready to become a PDF image XObject (with a soft mask when it has transparency). */
export interface RasterImage {
  width: number;
  height: number;
  colorSpace: 'DeviceRGB' | 'DeviceGray';
  /** 8-bit samples, deflated. */
  color: Buffer;
  /** 8-bit alpha samples, deflated; null when the image is opaque. */
  alpha: Buffer | null;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A drawn signature is a canvas of a few hundred pixels a side; this bounds the memory a hostile PNG takes. */
const MAX_PIXELS = 4_000_000;
const MAX_DATA_URL = 2 * 1024 * 1024;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** The PNG inside a `data:image/png;base64,…` URL. */
export function pngFromDataUrl(dataUrl: string): Buffer {
  if (dataUrl.length > MAX_DATA_URL) throw new Error('the drawn signature image is too large');
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) throw new Error('the drawn signature must be a data:image/png;base64 URL');
  return Buffer.from(match[1], 'base64');
}

/**
 * Decodes an 8-bit, non-interlaced PNG (grey, grey+alpha, RGB, RGBA: what a canvas exports) into
 * separate colour and alpha planes, since PDF carries transparency as a soft mask. Other PNG
 * kinds (palette, 16-bit, interlaced) are refused with a clear message.
 */
export function decodePng(png: Buffer): RasterImage {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('the signature image is not a PNG');
  let width = 0;
  let height = 0;
  let colorType = -1;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (data.length !== length) throw new Error('the signature PNG is truncated');
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      colorType = data[9];
      if (depth !== 8 || !(colorType in CHANNELS) || data[12] !== 0)
        throw new Error('the signature PNG must be 8-bit grey or RGB, with or without alpha, not interlaced');
      if (width < 1 || height < 1 || width * height > MAX_PIXELS) throw new Error('the signature PNG is too large');
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (colorType === -1 || idat.length === 0) throw new Error('the signature PNG has no image data');
  const channels = CHANNELS[colorType];
  const stride = width * channels;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  } catch {
    throw new Error('the signature PNG data cannot be decompressed');
  }
  if (raw.length < (stride + 1) * height) throw new Error('the signature PNG is truncated');
  const pixels = unfilter(raw, stride, height, channels);
  const colorChannels = colorType === 0 || colorType === 4 ? 1 : 3;
  const hasAlpha = colorType === 4 || colorType === 6;
  const color = Buffer.alloc(width * height * colorChannels);
  const alpha = hasAlpha ? Buffer.alloc(width * height) : null;
  for (let p = 0, c = 0; p < width * height; p++) {
    const at = p * channels;
    for (let k = 0; k < colorChannels; k++) color[c++] = pixels[at + k];
    if (alpha) alpha[p] = pixels[at + channels - 1];
  }
  return {
    width,
    height,
    colorSpace: colorChannels === 1 ? 'DeviceGray' : 'DeviceRGB',
    color: deflateSync(color),
    alpha: alpha ? deflateSync(alpha) : null,
  };
}

/** Reverses the PNG row filters (none, sub, up, average, Paeth). */
function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Buffer {
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const value = raw[line + x];
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error('the signature PNG is damaged (unknown row filter)');
      out[row + x] = (value + predicted) & 0xff;
    }
  }
  return out;
}
