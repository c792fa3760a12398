import { z } from 'zod';
import {
  ADMIN_LOGO_MAX_BYTES,
  AIRDROP_LOGO_MAX_BYTES,
  DEPLOY_LOGO_MAX_BYTES,
  LISTING_LOGO_MAX_BYTES,
  LOGO_ASPECT_MAX,
  LOGO_ASPECT_MIN,
  LOGO_MIME_TYPES,
} from '../constants';

// Logo uploads (spec 001 §5 and §7 POST /api/upload): one set of rules for the web forms (checked
// before sending) and the server (checked again on the bytes). Messages are the spec's strings
// where it has them; the others are ours and say what to do.

/** What an upload is for; each form has its own size limit and messages. */
export const UPLOAD_PURPOSES = ['deploy', 'listing', 'airdrop', 'admin'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
/** The spec's deploy form sends only `logo` and `csrf_token`, so a missing purpose means deploy. */
const DEFAULT_UPLOAD_PURPOSE: UploadPurpose = 'deploy';
export const isUploadPurpose = (value: unknown): value is UploadPurpose =>
  typeof value === 'string' && (UPLOAD_PURPOSES as readonly string[]).includes(value);

/** Multipart field names of POST /api/upload. Send the text fields before the file. */
export const UPLOAD_FIELDS = { file: 'logo', purpose: 'purpose', csrf: 'csrf_token' } as const;

type LogoMimeType = (typeof LOGO_MIME_TYPES)[number];

/** Largest width or height accepted (a larger image is refused before it is decoded). */
export const LOGO_MAX_DIMENSION_PX = 4096;
/** Stored logos are scaled down (never up) to fit this square. */
export const LOGO_OUTPUT_MAX_PX = 512;

export const UPLOAD_MESSAGES = {
  type: 'Only JPEG, PNG, and WebP images are allowed.',
  size1Mb: 'Image size must be less than 1MB.',
  size5Mb: 'Image size must be less than 5MB.',
  sizeAdmin: 'Max size 1MB.',
  aspect: 'Image must be square or near-square.',
  aspectAdmin: 'Image must be square-ish.',
  missing: 'Please upload a logo.',
  empty: 'The image file is empty. Please choose another image.',
  dimensions: `Image dimensions are too large. The maximum is ${LOGO_MAX_DIMENSION_PX}×${LOGO_MAX_DIMENSION_PX} pixels.`,
  unreadable: 'The image could not be read. Please upload a valid JPEG, PNG, or WebP file.',
  purpose: `Upload purpose must be one of: ${UPLOAD_PURPOSES.join(', ')}.`,
  notMultipart: 'Send the image as multipart/form-data with the file in the "logo" field.',
  oneFile: 'Upload one image at a time, in the "logo" field.',
  badForm: 'The upload form could not be read. Please try again.',
  /** Spec 001 §8: what the forms show when the upload itself fails. */
  failed: 'Upload failed. Please try again.',
} as const;

interface LogoRule {
  maxBytes: number;
  sizeMessage: string;
  aspectMessage: string;
}

/** Spec 001 §5 and §9: deploy 1 MB, listing 5 MB, admin 1 MB, airdrop 5 MB; aspect 0.8–1.2 for all. */
export const LOGO_RULES: Record<UploadPurpose, LogoRule> = {
  deploy: {
    maxBytes: DEPLOY_LOGO_MAX_BYTES,
    sizeMessage: UPLOAD_MESSAGES.size1Mb,
    aspectMessage: UPLOAD_MESSAGES.aspect,
  },
  listing: {
    maxBytes: LISTING_LOGO_MAX_BYTES,
    sizeMessage: UPLOAD_MESSAGES.size5Mb,
    aspectMessage: UPLOAD_MESSAGES.aspect,
  },
  airdrop: {
    maxBytes: AIRDROP_LOGO_MAX_BYTES,
    sizeMessage: UPLOAD_MESSAGES.size5Mb,
    aspectMessage: UPLOAD_MESSAGES.aspect,
  },
  admin: {
    maxBytes: ADMIN_LOGO_MAX_BYTES,
    sizeMessage: UPLOAD_MESSAGES.sizeAdmin,
    aspectMessage: UPLOAD_MESSAGES.aspectAdmin,
  },
};

/** The largest file any purpose accepts (the server stops reading a request past it). */
export const LOGO_MAX_BYTES = Math.max(...Object.values(LOGO_RULES).map((r) => r.maxBytes));

const isLogoMimeType = (type: string): type is LogoMimeType =>
  (LOGO_MIME_TYPES as readonly string[]).includes(type.toLowerCase());

/**
 * The checks a browser can make before sending (declared type, size). The server repeats them on
 * the bytes themselves. Returns the message to show, or undefined when the file may be sent.
 * A file of exactly the limit is accepted; one byte more is not.
 */
export function checkLogoFile(
  file: { type: string; size: number },
  purpose: UploadPurpose,
): string | undefined {
  const rule = LOGO_RULES[purpose];
  if (!isLogoMimeType(file.type)) return UPLOAD_MESSAGES.type;
  if (file.size <= 0) return UPLOAD_MESSAGES.empty;
  if (file.size > rule.maxBytes) return rule.sizeMessage;
  return undefined;
}

/** `'0.8'` → [8, 10]: the aspect bounds as integer fractions, so the comparison has no rounding. */
function fraction(decimal: string): [number, number] {
  const [whole = '0', part = ''] = decimal.split('.');
  const scale = 10 ** part.length;
  return [Number(whole) * scale + Number(part || '0'), scale];
}
const [MIN_NUM, MIN_DEN] = fraction(LOGO_ASPECT_MIN);
const [MAX_NUM, MAX_DEN] = fraction(LOGO_ASPECT_MAX);

/** Width ÷ height within 0.8–1.2 inclusive (exact, in integers). */
export function aspectOk(width: number, height: number): boolean {
  if (!(width > 0 && height > 0)) return false;
  return width * MIN_DEN >= height * MIN_NUM && width * MAX_DEN <= height * MAX_NUM;
}

/** The dimension checks (server after reading the header; browser after loading the image). */
export function checkLogoDimensions(
  width: number,
  height: number,
  purpose: UploadPurpose,
): string | undefined {
  if (width > LOGO_MAX_DIMENSION_PX || height > LOGO_MAX_DIMENSION_PX) return UPLOAD_MESSAGES.dimensions;
  if (!aspectOk(width, height)) return LOGO_RULES[purpose].aspectMessage;
  return undefined;
}

/** The text fields of POST /api/upload (the file itself is checked on its bytes). */
export const uploadFieldsSchema = z.object({
  purpose: z
    .enum(UPLOAD_PURPOSES, { error: UPLOAD_MESSAGES.purpose })
    .optional()
    .transform((p) => p ?? DEFAULT_UPLOAD_PURPOSE),
});

/** A stored image's name: the SHA-256 of its bytes and the extension of its format. */
export const STORED_IMAGE_NAME = /^[a-f0-9]{64}\.(?:webp|png|jpg)$/;
/** Where stored logos are served (spec 000 §7); the same files are also served at /images/{name}. */
export const LOGO_URL_PREFIX = '/cdn/logos/';
export const IMAGE_URL_PREFIX = '/images/';

export const uploadResponseSchema = z.object({
  /** Same-origin path of the stored logo, e.g. `/cdn/logos/<sha256>.png`; immutable. */
  servedUrl: z
    .string()
    .refine((u) => u.startsWith(LOGO_URL_PREFIX) && STORED_IMAGE_NAME.test(u.slice(LOGO_URL_PREFIX.length))),
  /** The messenger's file id of the same image; null until a Telegram bot publishes logos. */
  telegramFileId: z.string().nullable(),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
