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
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ClosedLedgerRecord, LedgerEntry } from '../core/contract';

const HEADER_BYTES = 8;
const SNAPSHOT = 'ledgers.snapshot';
const LOCK = 'LOCK';
const JOURNAL = 'ledgers.journal';

/**
 * The skip lists (LedgerHashes) are rewritten every close with one hash appended: up to 256 hashes,
 * ~17 KB of JSON per ledger, nearly all of it repeated. They are journaled as a delta against the
 * previous version (drop n from the front, append the rest), ~100 bytes.
 */
const DELTA_TYPES = new Set(['LedgerHashes']);

interface EntryDelta {
  '~delta': { arrays: Record<string, [number, unknown[]]>; set: Record<string, unknown>; unset: string[] };
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function diffEntry(prev: LedgerEntry, next: LedgerEntry): EntryDelta {
  const delta: EntryDelta['~delta'] = { arrays: {}, set: {}, unset: [] };
  for (const [field, value] of Object.entries(next)) {
    const old = prev[field];
    if (sameJson(old, value)) continue;
    if (Array.isArray(old) && Array.isArray(value)) {
      const drop = [0, 1, 2, 3].find(
        (k) =>
          k <= old.length &&
          old.length - k <= value.length &&
          sameJson(old.slice(k), value.slice(0, old.length - k)),
      );
      if (drop !== undefined) {
        delta.arrays[field] = [drop, value.slice(old.length - drop)];
        continue;
      }
    }
    delta.set[field] = value;
  }
  for (const field of Object.keys(prev)) if (!(field in next)) delta.unset.push(field);
  return { '~delta': delta };
}

function applyDelta(prev: LedgerEntry, delta: EntryDelta['~delta']): LedgerEntry {
  const next: Record<string, unknown> = { ...prev, ...delta.set };
  for (const [field, [drop, tail]] of Object.entries(delta.arrays)) {
    next[field] = [...(prev[field] as unknown[]).slice(drop), ...tail];
  }
  for (const field of delta.unset) delete next[field];
  return next as LedgerEntry;
}

function isDelta(value: unknown): value is EntryDelta {
  return typeof value === 'object' && value !== null && '~delta' in value;
}

/** Tracks the last written version of delta-encoded entries, on the writing and the reading side. */
export class DeltaCodec {
  private readonly last = new Map<string, LedgerEntry>();

  encode(record: ClosedLedgerRecord): unknown {
    const stateChanges = record.stateChanges.map(([index, entry]): [string, unknown] => {
      if (!entry || !DELTA_TYPES.has(entry.LedgerEntryType)) {
        this.last.delete(index);
        return [index, entry];
      }
      const prev = this.last.get(index);
      this.last.set(index, entry);
      return [index, prev ? diffEntry(prev, entry) : entry];
    });
    return { ...record, stateChanges };
  }

  /** undefined when a delta has no base (never written by this codec): the frame is unusable. */
  decode(
    raw: { stateChanges: Array<[string, unknown]> } & Omit<ClosedLedgerRecord, 'stateChanges'>,
  ): ClosedLedgerRecord | undefined {
    const stateChanges: Array<[string, LedgerEntry | null]> = [];
    for (const [index, value] of raw.stateChanges) {
      if (isDelta(value)) {
        const prev = this.last.get(index);
        if (!prev) return undefined;
        const entry = applyDelta(prev, value['~delta']);
        this.last.set(index, entry);
        stateChanges.push([index, entry]);
      } else {
        const entry = value as LedgerEntry | null;
        if (entry && DELTA_TYPES.has(entry.LedgerEntryType)) this.last.set(index, entry);
        else this.last.delete(index);
        stateChanges.push([index, entry]);
      }
    }
    return { ...raw, stateChanges };
  }
}

export function encodeFrame(record: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(record), 'utf8');
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(payload.length, 0);
  header.writeUInt32BE(crc32(payload) >>> 0, 4);
  return Buffer.concat([header, payload]);
}

/** Decodes frames until the first incomplete or corrupt one; returns the raw payloads and where valid data ends. */
export function decodeFrames<T = ClosedLedgerRecord>(data: Buffer): { records: T[]; validBytes: number } {
  const records: T[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32BE(offset);
    const checksum = data.readUInt32BE(offset + 4);
    const end = offset + HEADER_BYTES + length;
    if (end > data.length) break;
    const payload = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) >>> 0 !== checksum) break;
    try {
      records.push(JSON.parse(payload.toString('utf8')) as T);
    } catch {
      break;
    }
    offset = end;
  }
  return { records, validBytes: offset };
}

/** write(2) may write less than asked; loop until the whole buffer is down. */
function writeAll(fd: number, data: Buffer, position?: number): void {
  let written = 0;
  while (written < data.length) {
    written += writeSync(
      fd,
      data,
      written,
      data.length - written,
      position === undefined ? null : position + written,
    );
  }
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
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
  /** Fresh per process: the first skip-list write after a start is whole, later ones are deltas. */
  private readonly writer = new DeltaCodec();
  private readonly compactEvery: number;

  constructor(
    readonly dir: string,
    options: LedgerStoreOptions = {},
  ) {
    this.compactEvery = options.compactEvery ?? 1000;
    mkdirSync(dir, { recursive: true });
    this.lock();
    // A temp snapshot left by a crash mid-compaction was never renamed: the old one is intact.
    rmSync(join(dir, `${SNAPSHOT}.tmp`), { force: true });
  }

  /** All persisted records, oldest first, deduplicated by ledger index; repairs a torn journal tail. */
  load(): ClosedLedgerRecord[] {
    const out: ClosedLedgerRecord[] = [];
    const reader = new DeltaCodec();
    let last = -1;
    type RawRecord = Parameters<DeltaCodec['decode']>[0];
    const take = (records: RawRecord[]): void => {
      for (const raw of records) {
        // After a crash between snapshot rename and journal truncation, both hold the same ledgers;
        // the copies are skipped without touching the delta bases.
        if (raw.header.ledger_index <= last) continue;
        const record = reader.decode(raw);
        // A delta without a base cannot come from this writer; stop rather than guess.
        if (!record) return;
        out.push(record);
        last = record.header.ledger_index;
      }
    };
    const snapshotPath = join(this.dir, SNAPSHOT);
    if (existsSync(snapshotPath)) take(decodeFrames<RawRecord>(readFileSync(snapshotPath)).records);
    const journalPath = join(this.dir, JOURNAL);
    const created = !existsSync(journalPath);
    this.journalFd = openSync(journalPath, created ? 'w+' : 'r+');
    // Make the new file's directory entry durable too.
    if (created) fsyncDir(this.dir);
    const journal = readFileSync(journalPath);
    const { records, validBytes } = decodeFrames<RawRecord>(journal);
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
    const frame = encodeFrame(this.writer.encode(record));
    const fd = this.journalFd as number;
    writeAll(fd, frame, this.journalBytes);
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
      writeAll(fd, previousValid);
      writeAll(fd, journal);
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
    if (this.locked) {
      rmSync(join(this.dir, LOCK), { force: true });
      this.locked = false;
    }
  }

  private locked = false;

  /** One writer per directory: two appenders would interleave frames. A dead owner's lock is taken over. */
  private lock(): void {
    const path = join(this.dir, LOCK);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        writeFileSync(path, String(process.pid), { flag: 'wx' });
        this.locked = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const owner = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(`ledger data directory ${this.dir} is in use by process ${owner}`);
      }
      rmSync(path, { force: true });
    }
    throw new Error(`could not lock ledger data directory ${this.dir}`);
  }
}
