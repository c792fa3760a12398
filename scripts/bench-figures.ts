import { appendFileSync } from 'node:fs';

// The figures every benchmark reports, in one shape: each is printed as it is measured and, when
// the root `npm run bench` (scripts/bench.mjs) runs the workspaces' benches, appended as one JSON
// line to the file named by BENCH_FIGURES, from which it prints the summary table at the end.

export interface FigureTarget {
  op: '>=' | '<=';
  value: number;
}

export interface Figure {
  /** The benchmark it belongs to, e.g. 'market indexer'. */
  section: string;
  figure: string;
  /** null when the section could not measure it (it failed). */
  value: number | null;
  unit: string;
  /** Without a target the figure is informational (no PASS/MISS). */
  target?: FigureTarget;
  /** Decimals printed (default: 0 for values ≥ 100, else 1). */
  digits?: number;
  /** What else belongs with the figure (a range of rounds, the machine's load…). */
  note?: string;
}

export interface RecordedFigure extends Figure {
  pass: boolean | null;
}

export const atLeast = (value: number): FigureTarget => ({ op: '>=', value });
export const atMost = (value: number): FigureTarget => ({ op: '<=', value });

export function meets(value: number | null, target: FigureTarget | undefined): boolean | null {
  if (!target) return null;
  if (value === null || !Number.isFinite(value)) return false;
  return target.op === '>=' ? value >= target.value : value <= target.value;
}

export function formatValue(value: number | null, digits?: number): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : 1);
  return value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

export function formatTarget(target: FigureTarget | undefined, unit: string): string {
  if (!target) return '';
  return `${target.op === '>=' ? '≥' : '≤'} ${formatValue(target.value, Number.isInteger(target.value) ? 0 : 2)} ${unit}`;
}

/** Prints the figure and records it for the summary; returns whether it met its target (true without one). */
export function report(figure: Figure): boolean {
  const pass = meets(figure.value, figure.target);
  const recorded: RecordedFigure = { ...figure, pass };
  const verdict = pass === null ? '' : pass ? '  PASS' : '  MISS';
  const target = figure.target ? `  (target ${formatTarget(figure.target, figure.unit)})` : '';
  console.log(
    `  ${figure.figure}: ${formatValue(figure.value, figure.digits)} ${figure.unit}${target}${verdict}` +
      (figure.note ? `  ${figure.note}` : ''),
  );
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(recorded)}\n`);
  return pass !== false;
}

/** A section that threw: one failed row in the summary, so a crash never hides as "no figures". */
export function reportFailure(section: string, err: unknown): void {
  report({
    section,
    figure: 'section failed',
    value: null,
    unit: '',
    target: atLeast(0),
    note: (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 120),
  });
}
