// Crash-safe persistence of closed ledgers. An append-only journal of framed records
// ([u32 length][u32 crc32][JSON]) is fsynced after every close; on load a torn or corrupt tail is
// cut off. Periodically the journal is folded into a snapshot written to a temp file, fsynced and
// renamed over the old one, so a crash at any point leaves either the old or the new snapshot.
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ClosedLedgerRecord } from '../core/contract';

const HEADER_BYTES = 8;
const SNAPSHOT = 'ledgers.snapshot';
const JOURNAL = 'ledgers.journal';

export function encodeFrame(record: ClosedLedgerRecord): Buffer {
  const payload = Buffer.from(JSON.stringify(record), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(payload.length, 0);
  header.writeUInt32BE(crc32(payload) >>> 0, 4);
  return Buffer.concat([header, payload]);
}

/** Decodes frames until the first incomplete or corrupt one; returns the records and where valid data ends. */
export function decodeFrames(data: Buffer): { records: ClosedLedgerRecord[]; validBytes: number } {
  const records: ClosedLedgerRecord[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32BE(offset);
    const checksum = data.readUInt32BE(offset + 4);
    const end = offset + HEADER_BYTES + length;
    if (end > data.length) break;
    const payload = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) >>> 0 !== checksum) break;
    try {
      records.push(JSON.parse(payload.toString('utf8')) as ClosedLedgerRecord);
    } catch {
      break;
    }
    offset = end;
  }
  return { records, validBytes: offset };
}

function fsyncDir(dir: string): void {
  // Directory fsync makes a rename durable; not every platform allows opening a directory.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}

export interface LedgerStoreOptions {
  /** Fold the journal into the snapshot after this many appended records. */
  compactEvery?: number;
}

export class LedgerStore {
  private journalFd: number | undefined;
  private journalBytes = 0;
  private appendedSinceCompaction = 0;
  private readonly compactEvery: number;

  constructor(
    readonly dir: string,
    options: LedgerStoreOptions = {},
  ) {
    this.compactEvery = options.compactEvery ?? 1000;
    mkdirSync(dir, { recursive: true });
    // A temp snapshot left by a crash mid-compaction was never renamed: the old one is intact.
    rmSync(join(dir, `${SNAPSHOT}.tmp`), { force: true });
  }

  /** All persisted records, oldest first, deduplicated by ledger index; repairs a torn journal tail. */
  load(): ClosedLedgerRecord[] {
    const out: ClosedLedgerRecord[] = [];
    let last = -1;
    const take = (records: ClosedLedgerRecord[]): void => {
      for (const record of records) {
        // After a crash between snapshot rename and journal truncation, both hold the same ledgers.
        if (record.header.ledger_index <= last) continue;
        out.push(record);
        last = record.header.ledger_index;
      }
    };
    const snapshotPath = join(this.dir, SNAPSHOT);
    if (existsSync(snapshotPath)) take(decodeFrames(readFileSync(snapshotPath)).records);
    const journalPath = join(this.dir, JOURNAL);
    this.journalFd = openSync(journalPath, existsSync(journalPath) ? 'r+' : 'w+');
    const journal = readFileSync(journalPath);
    const { records, validBytes } = decodeFrames(journal);
    if (validBytes < journal.length) {
      ftruncateSync(this.journalFd, validBytes);
      fdatasyncSync(this.journalFd);
    }
    this.journalBytes = validBytes;
    take(records);
    return out;
  }

  /** Appends one closed ledger and makes it durable before returning. */
  append(record: ClosedLedgerRecord): void {
    if (this.journalFd === undefined) this.load();
    const frame = encodeFrame(record);
    const fd = this.journalFd as number;
    let written = 0;
    while (written < frame.length) {
      written += writeSync(fd, frame, written, frame.length - written, this.journalBytes + written);
    }
    fdatasyncSync(fd);
    this.journalBytes += frame.length;
    this.appendedSinceCompaction += 1;
    if (this.appendedSinceCompaction >= this.compactEvery) this.compact();
  }

  /** Folds the journal into a new snapshot (temp file, fsync, rename), then empties the journal. */
  compact(): void {
    if (this.journalFd === undefined) return;
    const snapshotPath = join(this.dir, SNAPSHOT);
    const tmpPath = `${snapshotPath}.tmp`;
    const journal = readFileSync(join(this.dir, JOURNAL)).subarray(0, this.journalBytes);
    const previous = existsSync(snapshotPath) ? readFileSync(snapshotPath) : Buffer.alloc(0);
    const previousValid = previous.subarray(0, decodeFrames(previous).validBytes);
    const fd = openSync(tmpPath, 'w');
    try {
      writeSync(fd, previousValid);
      writeSync(fd, journal);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmpPath, snapshotPath);
    fsyncDir(this.dir);
    ftruncateSync(this.journalFd, 0);
    fdatasyncSync(this.journalFd);
    this.journalBytes = 0;
    this.appendedSinceCompaction = 0;
  }

  close(): void {
    if (this.journalFd !== undefined) {
      closeSync(this.journalFd);
      this.journalFd = undefined;
    }
  }
}
