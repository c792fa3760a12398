import type { Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import {
  isUploadPurpose,
  LOGO_MAX_BYTES,
  LOGO_RULES,
  UPLOAD_FIELDS,
  UPLOAD_MESSAGES,
  type UploadPurpose,
} from '@ledgerpad/shared';
import { badRequest, payloadTooLarge } from '../../lib/errors';

// The multipart form of POST /api/upload is parsed as the request body (a content-type parser),
// not in the handler or a preValidation hook: the global CSRF hook is a root preValidation hook and
// runs before any hook this module could add, so only a body parsed here lets it see the
// `csrf_token` field. It streams with busboy (the parser @fastify/multipart wraps) and stops
// reading as soon as the file passes its purpose's limit, so a huge upload is never buffered.

/** The one file of an upload. Kept beside the body, not in it, so body-wide checks never walk it. */
export interface UploadedFile {
  fileName: string;
  declaredType: string;
  data: Buffer;
}

/** The text fields become the body; the file is looked up with `uploadedFile(request)`. */
export type UploadBody = Record<string, string>;

const files = new WeakMap<FastifyRequest, UploadedFile>();

export const uploadedFile = (request: FastifyRequest): UploadedFile | undefined => files.get(request);

/** Fields, boundaries and part headers of a well-formed upload take far less than this. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELDS = 8;
const MAX_FIELD_BYTES = 1024;

/** 413 with the purpose's message; the 5 MB one while the purpose is not known yet. */
const tooLarge = (purpose: UploadPurpose | undefined) =>
  payloadTooLarge(LOGO_RULES[purpose ?? 'listing'].sizeMessage);

/**
 * Parses one upload form: text fields into the body, at most one file (field `logo`). The file may
 * be at most LOGO_MAX_BYTES, or its purpose's limit when the `purpose` field comes before it (as
 * the web forms send it); a purpose sent after the file is checked once the form is read.
 */
export function parseUploadForm(request: FastifyRequest, payload: Readable): Promise<UploadBody> {
  return new Promise<UploadBody>((resolve, reject) => {
    const body: UploadBody = {};
    let file: UploadedFile | undefined;
    let fileOpen = false;
    let formDone = false;
    let settled = false;
    let received = 0;

    let bb: ReturnType<typeof Busboy>;
    try {
      bb = new Busboy({
        headers: request.headers as { 'content-type': string },
        limits: {
          fileSize: LOGO_MAX_BYTES,
          files: 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + 1,
          headerPairs: 16,
        },
      });
    } catch {
      reject(badRequest(UPLOAD_MESSAGES.badForm)); // e.g. no boundary in the Content-Type
      return;
    }

    const purposeSoFar = (): UploadPurpose | undefined => {
      const value = body[UPLOAD_FIELDS.purpose];
      return isUploadPurpose(value) ? value : undefined;
    };
    const limitSoFar = () => {
      const purpose = purposeSoFar();
      return purpose ? LOGO_RULES[purpose].maxBytes : LOGO_MAX_BYTES;
    };

    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > LOGO_MAX_BYTES + FORM_OVERHEAD_BYTES) fail(tooLarge(purposeSoFar()));
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      // Stop reading: the rest of the request is neither parsed nor buffered.
      payload.unpipe(bb);
      payload.removeListener('data', count);
      payload.pause();
      reject(err);
    };
    const finish = () => {
      if (settled || !formDone || fileOpen) return;
      settled = true;
      if (file) files.set(request, file);
      resolve(body);
    };

    bb.on('field', (name, value, nameTruncated, valueTruncated) => {
      // A repeated field or one named like an Object.prototype member is not a form of ours.
      if (nameTruncated || valueTruncated || name in Object.prototype || Object.hasOwn(body, name)) {
        return fail(badRequest(UPLOAD_MESSAGES.badForm));
      }
      body[name] = value;
    });

    bb.on('file', (fieldName, stream, fileName, _encoding, mimeType) => {
      if (fieldName !== UPLOAD_FIELDS.file) {
        stream.resume();
        return fail(badRequest(UPLOAD_MESSAGES.oneFile));
      }
      fileOpen = true;
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limitSoFar()) return fail(tooLarge(purposeSoFar()));
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(tooLarge(purposeSoFar())));
      stream.on('error', () => fail(badRequest(UPLOAD_MESSAGES.badForm)));
      stream.on('end', () => {
        fileOpen = false;
        file = { fileName, declaredType: mimeType, data: Buffer.concat(chunks, size) };
        finish();
      });
    });

    bb.on('filesLimit', () => fail(badRequest(UPLOAD_MESSAGES.oneFile)));
    bb.on('fieldsLimit', () => fail(badRequest(UPLOAD_MESSAGES.badForm)));
    bb.on('partsLimit', () => fail(badRequest(UPLOAD_MESSAGES.badForm)));
    bb.on('error', () => fail(badRequest(UPLOAD_MESSAGES.badForm)));
    bb.on('finish', () => {
      formDone = true;
      finish();
    });

    payload.on('data', count);
    payload.on('error', () => fail(badRequest(UPLOAD_MESSAGES.badForm)));
    payload.pipe(bb);
  });
}
