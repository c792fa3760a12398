import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../../../e2e/support/server';
import { atLeast, atMost, report, reportFailure } from '../../../scripts/bench-figures';

// npm run bench -w apps/web: what a first visit to `/` costs.
// 1. Builds the web app with a Vite manifest into a temporary directory and sums the gzip size
//    (level 9, as the server's precompressed files) of the JS the browser must fetch to render `/`:
//    the entry chunk, the app (src/boot.tsx, imported once the shell has painted), the home page's
//    chunk, and every chunk they import statically.
// 2. Checks that the chart library and every signed-in page stay out of that set.
// 3. Starts the real server on that build (embedded ledger and database, demo market seeded) and
//    measures LCP and FCP of `/` in headless Chromium over 5 cold loads (a new context each).

const TARGET_LANDING_KB = 170;
const TARGET_LCP_MS = 400;
const SECTION = 'web: first visit to /';
const RUNS = 5;
const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function build(outDir: string): Manifest {
  execFileSync(
    process.execPath,
    [
      path.join(webRoot, '../../node_modules/vite/bin/vite.js'),
      'build',
      '--manifest',
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    {
      cwd: webRoot,
      stdio: 'ignore',
    },
  );
  return JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The chunk keys loaded with `roots`, following static imports only. */
function closure(manifest: Manifest, roots: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (key: string) => {
    if (out.has(key) || !manifest[key]) return;
    out.add(key);
    for (const i of manifest[key]!.imports ?? []) visit(i);
  };
  roots.forEach(visit);
  return out;
}

const gzipSize = (outDir: string, file: string) =>
  gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length;

function bundleReport(outDir: string, manifest: Manifest) {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const home = 'src/features/token-list/home-page.tsx';
  // The app (src/boot.tsx) is imported by the entry after the shell's first frame, its chunks
  // modulepreloaded by index.html: part of every first visit.
  const landing = closure(manifest, [entry, 'src/boot.tsx', home]);
  let total = 0;
  console.log('Landing route JS (gzip -9):');
  for (const key of landing) {
    const size = gzipSize(outDir, manifest[key]!.file);
    total += size;
    console.log(`  ${manifest[key]!.file.padEnd(44)} ${kb(size).padStart(7)} KB`);
  }
  report({
    section: SECTION,
    figure: 'landing route JS, gzip',
    value: total / 1024,
    unit: 'KB',
    target: atMost(TARGET_LANDING_KB),
    digits: 1,
  });

  // Code splitting: each route's own chunk, and nothing of it (or of the chart library) on `/`.
  const pages = [
    'src/features/token/token-page.tsx',
    'src/features/wallets/wallets-page.tsx',
    'src/features/deploy/deploy-page.tsx',
    'src/features/dashboard/dashboard-page.tsx',
    'src/features/list-token/list-token-page.tsx',
  ];
  console.log('Split routes (own chunk gzip; must not load on /):');
  let split = true;
  for (const page of pages) {
    const chunk = manifest[page];
    if (!chunk) continue;
    const onLanding = landing.has(page);
    split &&= !onLanding;
    console.log(
      `  ${page.padEnd(44)} ${kb(gzipSize(outDir, chunk.file)).padStart(7)} KB  ${onLanding ? 'ON LANDING' : 'split'}`,
    );
  }
  const chartOnLanding = [...landing].some((k) =>
    readFileSync(path.join(outDir, manifest[k]!.file), 'utf8').includes('lightweight-charts'),
  );
  split &&= !chartOnLanding;
  console.log(`  lightweight-charts on the landing route: ${chartOnLanding ? 'yes' : 'no'}`);
  report({
    section: SECTION,
    figure: 'pages and chart kept off the landing route',
    value: split ? 1 : 0,
    unit: split ? '(split)' : '(NOT split)',
    target: atLeast(1),
  });
}

async function lcpReport(outDir: string) {
  const server = await startServer({
    WEB_DIST_DIR: outDir,
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'on',
    DEMO_TRADE_INTERVAL_MS: '0',
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    // A landing page with its demo tokens: wait for the seed (a fresh embedded ledger).
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { demo } = (await (await fetch(`${server.url}/api/demo/status`)).json()) as { demo: string };
      if (demo === 'ready' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const runs: Array<{ lcp: number; fcp: number; js: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __lcp: number };
        w.__lcp = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__lcp = e.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(server.url, { waitUntil: 'load' });
      await page
        .getByTestId('token-row')
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => undefined);
      await page.waitForTimeout(300);
      runs.push(
        await page.evaluate(() => ({
          lcp: (window as unknown as { __lcp: number }).__lcp,
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
          js: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((r) => r.name.endsWith('.js'))
            .reduce((sum, r) => sum + r.transferSize, 0),
        })),
      );
      await context.close();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`LCP of / in headless Chromium on localhost, ${RUNS} cold loads:`);
    runs.forEach((r, i) =>
      console.log(
        `  run ${i + 1}: LCP ${r.lcp.toFixed(0)} ms, FCP ${r.fcp.toFixed(0)} ms, JS transferred ${kb(r.js)} KB`,
      ),
    );
    const lcp = median(runs.map((r) => r.lcp));
    const lcps = runs.map((r) => r.lcp);
    report({
      section: SECTION,
      figure: `LCP of /, median of ${RUNS} cold loads`,
      value: lcp,
      unit: 'ms',
      target: atMost(TARGET_LCP_MS),
      note: `${Math.min(...lcps).toFixed(0)}–${Math.max(...lcps).toFixed(0)} ms`,
    });
    report({
      section: SECTION,
      figure: 'FCP of /, median',
      value: median(runs.map((r) => r.fcp)),
      unit: 'ms',
    });
  } finally {
    await browser.close();
    await server.stop();
  }
}

const outDir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-web-bench-'));
try {
  const manifest = build(outDir);
  bundleReport(outDir, manifest);
  await lcpReport(outDir);
} catch (err) {
  reportFailure(SECTION, err);
  throw err;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
