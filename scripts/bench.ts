import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTarget, formatValue, reportFailure, type RecordedFigure } from './bench-figures';
import { measureMachine } from './bench-machine';

// `npm run bench`: every workspace's benchmark, one after the other, each run to its end whatever
// the others did (a missed target or a crash in one never skips the next); then one summary table
// of every figure with its target and PASS/MISS. `npm run bench -- apps/server` runs a subset.
// Each bench appends its figures to the file named by BENCH_FIGURES (scripts/bench-figures.ts).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACES = ['packages/xrpl-standalone', 'apps/server', 'apps/web'];

const only = process.argv.slice(2);
const workspaces = only.length ? WORKSPACES.filter((w) => only.some((o) => w.includes(o))) : WORKSPACES;
const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-bench-'));
const file = path.join(dir, 'figures.jsonl');
process.env.BENCH_FIGURES = file;

const recorded = () =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RecordedFigure)
    : [];

// Issue 40, the production path: with DATABASE_URL set (the local PostgreSQL CI uses), the server's
// database-bound sections run a second time on it, each in a fresh schema (test/db.ts), their rows
// marked "(PostgreSQL)". The hot launch is among them: production runs it on PostgreSQL, where a
// burst's statements leave the server's event loop. The other sections do not touch the database's engine (ledger, fan-out) or
// start `npm start` on its own PGlite (first-start memory).
const POSTGRES_SECTIONS = ['trading', 'airdrop', 'indexer', 'positions', 'public', 'hot launch'];
// The first pass stays on PGlite: `npm start` (first-start memory) would read DATABASE_URL itself.
const { DATABASE_URL: _postgres, ...pglite } = process.env;
const runs: Array<{ workspace: string; args: string[]; env: NodeJS.ProcessEnv }> = workspaces.flatMap(
  (workspace) => [
    { workspace, args: [], env: pglite },
    ...(workspace === 'apps/server' && process.env.DATABASE_URL
      ? [
          {
            workspace,
            args: ['--', ...POSTGRES_SECTIONS],
            env: { ...process.env, TEST_DATABASE_URL: process.env.DATABASE_URL },
          },
        ]
      : []),
  ],
);

const started = Date.now();
measureMachine();
for (const { workspace, args, env } of runs) {
  const postgres = env.TEST_DATABASE_URL ? ' on PostgreSQL' : '';
  console.log(`\n## ${workspace}${postgres}\n`);
  const before = recorded().length;
  const run = spawnSync('npm', ['run', 'bench', '-w', workspace, ...args], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  // A bench reports its own misses; one that exits badly without reporting a miss (a crash before
  // its first figure) still gets a row.
  const missed = recorded()
    .slice(before)
    .some((f) => f.pass === false);
  if (run.status !== 0 && !missed) {
    reportFailure(
      `${workspace}${postgres}`,
      run.error ?? (run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`),
    );
  }
}

const figures = recorded();
rmSync(dir, { recursive: true, force: true });

const rows = figures.map((f) => ({
  section: f.section,
  figure: f.figure,
  measured: `${formatValue(f.value, f.digits)} ${f.unit}`.trim(),
  target: formatTarget(f.target, f.unit),
  result: f.pass === null ? '' : f.pass ? 'PASS' : 'MISS',
  note: f.note ?? '',
}));
const width = (key: keyof (typeof rows)[number], title: string) =>
  Math.max(title.length, ...rows.map((r) => r[key].length));
const w = {
  figure: width('figure', 'figure') + 2,
  measured: width('measured', 'measured'),
  target: width('target', 'target'),
};
const line = (figure: string, measured: string, target: string, result: string, note: string) =>
  `${figure.padEnd(w.figure)}  ${measured.padStart(w.measured)}  ${target.padEnd(w.target)}  ${result.padEnd(6)}${note}`.trimEnd();

console.log(`\n# Summary (${((Date.now() - started) / 60_000).toFixed(1)} min)\n`);
console.log(line('figure', 'measured', 'target', 'result', ''));
console.log(line('-'.repeat(w.figure), '-'.repeat(w.measured), '-'.repeat(w.target), '------', ''));
let section = '';
for (const r of rows) {
  if (r.section !== section) {
    section = r.section;
    console.log(`${section}:`);
  }
  console.log(line(`  ${r.figure}`.padEnd(w.figure), r.measured, r.target, r.result, r.note));
}
const missed = rows.filter((r) => r.result === 'MISS').length;
const passed = rows.filter((r) => r.result === 'PASS').length;
console.log(`\n${passed} PASS, ${missed} MISS`);
if (missed > 0 || rows.length === 0) process.exitCode = 1;
