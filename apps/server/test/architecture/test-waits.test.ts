import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFiles, ROOT } from './source-files';

// Tests wait on the world, not the clock (issue 41, docs/code-health.md "Tests wait on the world"):
// one `sleep`/`until` (apps/server/test/helpers/wait.ts), the test app's `settle()` and the promises
// the code gives. This reads the server's and the web's tests and the e2e suite and fails on a
// `sleep`/`until` defined again, a bare `new Promise(r => setTimeout(r, n))` (the upper bound of a
// `Promise.race` is a timeout, not a wait, and passes), a deadline loop of its own, or Playwright's
// `waitForTimeout`.

const DIRS = ['apps/server/test', 'apps/web/test', 'e2e/specs', 'e2e/support'];
const HELPER = 'apps/server/test/helpers/wait.ts';

const LOCAL_HELPER =
  /\b(?:const|function)\s+(?:sleep|until|delay|waitUntil)\b\s*(?:=\s*(?:async\s*)?\(|\(|<)/g;
/** `new Promise((r) => setTimeout(r, n))`, also with braces: the resolver handed to setTimeout. */
const BARE_SLEEP = /new Promise(?:<[^>]*>)?\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{?\s*setTimeout\(\s*\1\s*,/g;
const DEADLINE_LOOP = /\b\w+\s*=\s*Date\.now\(\)\s*\+|while\s*\([^)]*Date\.now\(\)/g;
const PLAYWRIGHT_SLEEP = /\.waitForTimeout\(/g;

/**
 * Deadline loops that wait on an event, not on time, by file and count:
 * - helpers/socket-client.ts: the next socket frame (a waiter woken by the frame, bounded) ×2;
 * - helpers/test-app.ts: `settle()` itself (rounds until the world is quiet, bounded);
 * - ledger/helpers.ts: `closeUntil` closes ledgers until the awaited promise settles;
 * - production/two-instances.test.ts: the job's status re-read on each socket frame.
 */
const EVENT_LOOPS: Record<string, number> = {
  'apps/server/test/helpers/socket-client.ts': 2,
  'apps/server/test/helpers/test-app.ts': 1,
  'apps/server/test/ledger/helpers.ts': 2,
  'apps/server/test/production/two-instances.test.ts': 2,
};

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Whether the match at `index` is inside a `Promise.race([…])` (the statement it is in names one). */
function inRace(text: string, index: number): boolean {
  const statement = text.slice(Math.max(0, text.lastIndexOf(';', index) + 1), index);
  return /Promise\.race\(\s*\[/.test(statement);
}

function findings(file: string, text: string): { waits: string[]; loops: string[] } {
  const at = (m: RegExpMatchArray) => `${file}:${lineOf(text, m.index!)}: ${m[0]}`;
  const waits = [
    ...[...text.matchAll(LOCAL_HELPER)].map(at),
    ...[...text.matchAll(BARE_SLEEP)].filter((m) => !inRace(text, m.index!)).map(at),
    ...[...text.matchAll(PLAYWRIGHT_SLEEP)].map(at),
  ];
  const loops = [...text.matchAll(DEADLINE_LOOP)].map(at);
  return { waits, loops };
}

describe('tests wait through one helper', () => {
  const sources = DIRS.flatMap(repoFiles)
    .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }))
    .filter((s) => s.file !== HELPER && !s.file.startsWith('apps/server/test/architecture/'));

  it('no sleep or until of its own, no bare sleep, no waitForTimeout', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(sources.flatMap((s) => findings(s.file, s.text).waits)).toEqual([]);
  });

  it('no deadline loop but the ones that wait on an event', () => {
    const byFile = new Map(sources.map((s) => [s.file, findings(s.file, s.text).loops]));
    const extra = [...byFile].flatMap(([file, loops]) =>
      loops.length > (EVENT_LOOPS[file] ?? 0) ? loops : [],
    );
    expect(extra).toEqual([]);
    for (const [file, n] of Object.entries(EVENT_LOOPS)) expect(byFile.get(file)?.length, file).toBe(n);
  });

  it('sees each way of waiting by hand, and lets a race bound and the helper pass', () => {
    const f = (text: string) => findings('a.ts', text);
    expect(f('await new Promise((r) => setTimeout(r, 500));').waits).toHaveLength(1);
    expect(f('await new Promise<void>((resolve) => {\n  setTimeout(resolve, 100);\n});').waits).toHaveLength(
      1,
    );
    expect(f('const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));').waits).toHaveLength(2);
    expect(f('async function until(read) {}').waits).toHaveLength(1);
    expect(f('await page.waitForTimeout(300);').waits).toHaveLength(1);
    expect(f('const deadline = Date.now() + 15_000;\nfor (;;) {}').loops).toHaveLength(1);
    expect(f('while (!done && Date.now() < end) {}').loops).toHaveLength(1);
    expect(f('await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);').waits).toEqual([]);
    expect(
      f(
        'const done = await Promise.race([\n  closing,\n  new Promise((resolve) => setTimeout(resolve, 40_000)),\n]);',
      ).waits,
    ).toEqual([]);
    expect(f("await until('the seed', read, { timeoutMs: 1000 });").waits).toEqual([]);
  });
});
