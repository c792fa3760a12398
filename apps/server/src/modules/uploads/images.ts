import type sharp from 'sharp';
import {
  checkLogoDimensions,
  LOGO_MAX_DIMENSION_PX,
  LOGO_OUTPUT_MAX_PX,
  LOGO_RULES,
  UPLOAD_MESSAGES,
  type UploadPurpose,
} from '@ledgerpad/shared';
import { badRequest, payloadTooLarge } from '../../lib/errors';

// What a logo's bytes are decides everything; the file name and the declared Content-Type are
// ignored. Each image is decoded once with pixel limits, re-encoded in its own format without any
// metadata (EXIF, GPS, XMP, ICC, text chunks), turned upright and scaled to fit 512×512.

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export const IMAGE_FORMATS: Record<ImageFormat, { ext: 'jpg' | 'png' | 'webp'; contentType: string }> = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format by magic bytes: JPEG FF D8 FF, PNG's 8-byte signature, WebP RIFF....WEBP. */
export function sniffImageFormat(data: Buffer): ImageFormat | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (
    data.length >= 12 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  return undefined;
}

/** Decoding stops with an error past this many pixels, whatever a header claims. */
const MAX_INPUT_PIXELS = LOGO_MAX_DIMENSION_PX * LOGO_MAX_DIMENSION_PX;
/** A decode or encode that takes longer than this is abandoned (sharp's per-image timeout). */
const ENCODE_TIMEOUT_S = 10;

/**
 * sharp is loaded at the first image, not at start: its native libvips is ~19 MB of resident memory
 * as soon as it loads, which a server that is not handed a logo never needs (a later `npm start`'s
 * peak, docs/web-delivery.md "First-start memory"). Loaded once; a failed load is tried again.
 */
let sharpModule: Promise<typeof sharp> | undefined;
export function loadSharp(): Promise<typeof sharp> {
  sharpModule ??= import('sharp').then(
    (m) => m.default,
    (err: unknown) => {
      sharpModule = undefined;
      throw err;
    },
  );
  return sharpModule;
}

const INPUT = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning', pages: 1 } as const;

export interface NormalizedImage {
  data: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

const unreadable = () => badRequest(UPLOAD_MESSAGES.unreadable);
const isPixelLimit = (err: unknown) => err instanceof Error && /pixel limit/i.test(err.message);

/**
 * Checks a logo's bytes for a purpose and re-encodes it. Every refusal is a 4xx AppError with the
 * message the form shows; a broken image never surfaces as a 500.
 */
export async function normalizeLogo(data: Buffer, purpose: UploadPurpose): Promise<NormalizedImage> {
  const rule = LOGO_RULES[purpose];
  if (data.length === 0) throw badRequest(UPLOAD_MESSAGES.empty);
  const format = sniffImageFormat(data);
  if (!format) throw badRequest(UPLOAD_MESSAGES.type);
  if (data.length > rule.maxBytes) throw payloadTooLarge(rule.sizeMessage);

  // The header first: a small file that claims 100000×100000 pixels is refused here, undecoded.
  const image = await loadSharp();
  let meta: sharp.Metadata;
  try {
    meta = await image(data, INPUT).metadata();
  } catch (err) {
    throw isPixelLimit(err) ? badRequest(UPLOAD_MESSAGES.dimensions) : unreadable();
  }
  if (meta.format !== format) throw unreadable();
  // Orientation decides which side is the width (an EXIF-rotated photo is displayed upright).
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw unreadable();
  const problem = checkLogoDimensions(width, height, purpose);
  if (problem) throw badRequest(problem);

  const pipeline = image(data, INPUT).timeout({ seconds: ENCODE_TIMEOUT_S }).autoOrient().resize({
    width: LOGO_OUTPUT_MAX_PX,
    height: LOGO_OUTPUT_MAX_PX,
    fit: 'inside',
    withoutEnlargement: true,
  });
  // Same format out as in (browsers and the messenger take all three); no metadata is kept since
  // nothing asks sharp to keep it.
  const encoded =
    format === 'jpeg'
      ? pipeline.jpeg({ quality: 90, mozjpeg: true })
      : format === 'png'
        ? pipeline.png({ compressionLevel: 9 })
        : pipeline.webp({ quality: 90 });
  try {
    const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data: out, format, width: info.width, height: info.height };
  } catch (err) {
    throw isPixelLimit(err) ? badRequest(UPLOAD_MESSAGES.dimensions) : unreadable();
  }
}
