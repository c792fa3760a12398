// The demo market of the embedded default (see seed.ts).
export { DEMO_SEED_JOB, DEMO_HISTORY_MS, demoLedgerClockOffsetMs, registerDemo } from './seed';
