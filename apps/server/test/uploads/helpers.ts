import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import sharp from 'sharp';

// Real multipart bodies (built by the platform's FormData, as a browser builds them) and real
// images (made with sharp, or PNGs assembled chunk by chunk for the malicious cases).

export type Part =
  { name: string; value: string } | { name: string; data: Buffer; filename?: string; type?: string };

export async function multipart(parts: Part[]): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else
      form.append(
        part.name,
        new Blob([part.data], { type: part.type ?? 'application/octet-stream' }),
        part.filename ?? 'logo.png',
      );
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

/**
 * A multipart body streamed lazily: the text fields, then a `logo` file of `fileBytes` bytes
 * produced on demand. `read()` says how much of it the server pulled.
 */
export function streamedUpload(fields: Record<string, string>, fileBytes: number) {
  const boundary = `----ledgerpad${randomBytes(8).toString('hex')}`;
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="big.png"\r\n` +
    `Content-Type: image/png\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  let fileSent = 0;
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  const stream = new Readable({
    read() {
      if (stage === 'head') {
        stage = 'file';
        sent += head.length;
        this.push(Buffer.from(head, 'latin1'));
        return;
      }
      if (stage === 'file') {
        const n = Math.min(chunk.length, fileBytes - fileSent);
        if (n <= 0) {
          stage = 'tail';
        } else {
          fileSent += n;
          sent += n;
          // The file starts like a PNG, so only its size can refuse it.
          this.push(
            fileSent === n ? Buffer.concat([PNG_SIGNATURE, chunk.subarray(8, n)]) : chunk.subarray(0, n),
          );
          return;
        }
      }
      if (stage === 'tail') {
        stage = 'done';
        sent += tail.length;
        this.push(Buffer.from(tail, 'latin1'));
        return;
      }
      this.push(null);
    },
  });
  return { stream, contentType: `multipart/form-data; boundary=${boundary}`, read: () => sent };
}

export const solid = (width: number, height: number, format: 'png' | 'jpeg' | 'webp', colour = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();

/** Incompressible pixels: a PNG of about width × height × 3 bytes. */
export const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A well-formed PNG (valid CRCs) declaring `width` × `height`. With `bitDepth` 1 grayscale the
 * pixel data is real and all zero, so it deflates to almost nothing however large it claims to be.
 */
export function craftedPng(width: number, height: number, opts: { fullData?: boolean } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grayscale
  const rowBytes = 1 + Math.ceil(width / 8);
  const idat = opts.fullData
    ? zlib.deflateSync(Buffer.alloc(rowBytes * height), { level: 9 })
    : zlib.deflateSync(Buffer.alloc(rowBytes * 4));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
