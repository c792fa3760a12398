import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

// Who holds a lease, in a form another process can judge: `host:pid/token`. A lease outlives its
// holder when the holder is killed (kill -9 leaves the row), and a lease long enough to cover a
// slow round then holds the work back for its whole length after a crash (issue 34: a bonding
// curve's ladder stayed short for the keeper's whole 30 s lease). So a claimer also asks whether
// the holder still lives, where that can be known for certain:
// - on this host, a holder whose process is gone (`kill(pid, 0)` answers ESRCH) is dead;
// - a holder with this very process id that is not one of this process's live holders is this
//   process in a former life (a restarted container keeps pid 1 and its hostname) — dead;
// - a holder on another host cannot be judged from here: its lease runs out (kept short and
//   renewed while the holder works, so that is soon).
// Hostnames stand for process namespaces: true of machines and of containers (each its own name).

/** The holders of this process that are alive (registered until released). */
const live = new Set<string>();

const HOLDER = /^(.*):(\d+)\/([0-9a-f]+)$/;

export interface LeaseHolder {
  /** `host:pid/token`, written into the lease rows this holder takes. */
  readonly id: string;
  /** This holder stops: its leases left behind are a dead holder's from now on. */
  release(): void;
}

export function newLeaseHolder(): LeaseHolder {
  const id = `${hostname()}:${process.pid}/${randomBytes(6).toString('hex')}`;
  live.add(id);
  return { id, release: () => void live.delete(id) };
}

/** True when the holder named `id` is certainly dead (see above); false when alive or unknown. */
export function holderIsGone(id: string): boolean {
  if (live.has(id)) return false;
  const m = HOLDER.exec(id);
  if (!m || m[1] !== hostname()) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false; // a process with that id runs (perhaps another one: then the lease runs out)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
