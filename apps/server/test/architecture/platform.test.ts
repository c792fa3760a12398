import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files, rel, SRC } from './source-files';

// The platform (src/platform, plugins, app.ts) serves the modules without knowing them: a module
// says how its jobs are logged where it registers them (`completedLog`), so the platform never
// names a module's job type. And the platform's files hold one class each (errors aside): the job
// runner is runner.ts (JobRunner) and job-run.ts (JobRun), not two classes in one file.

const all = files(SRC);
const platformFiles = all.filter((f) => /^(platform|plugins)\/|^app\.ts$/.test(rel(f)));

describe('the platform and the modules', () => {
  it('names no job type of a module outside the modules', () => {
    const types = new Set<string>();
    for (const f of all.filter((f) => rel(f).startsWith('modules/'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bconst [A-Z_]+_JOB\s*=\s*'([^']+)'/g))
        types.add(m[1]!);
    }
    expect(types.size).toBeGreaterThanOrEqual(10);
    const offenders = platformFiles.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return [...types].filter((t) => text.includes(`'${t}'`)).map((t) => `${rel(f)} names '${t}'`);
    });
    expect(offenders).toEqual([]);
  });

  it('keeps one class to a file in platform/ (error classes aside)', () => {
    const offenders = all
      .filter((f) => rel(f).startsWith('platform/'))
      .flatMap((f) => {
        const classes = [...readFileSync(f, 'utf8').matchAll(/^(?:export )?class (\w+)(?: extends (\w+))?/gm)]
          .filter((m) => !/Error$/.test(m[2] ?? ''))
          .map((m) => m[1]);
        return classes.length > 1 ? [`${rel(f)}: ${classes.join(', ')}`] : [];
      });
    expect(offenders).toEqual([]);
  });

  it("leaves the path's user id to the access plugin: no module reads or compares it itself", () => {
    const offenders = all
      .filter((f) => rel(f).startsWith('modules/'))
      .filter((f) => /params\.userId|\bownUserParam\b|'userId'\s*\)/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });
});
