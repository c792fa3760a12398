// The demo market of the embedded default (see seed.ts).
export {
  DEMO_SEED_JOB,
  DemoTrading,
  DEMO_HISTORY_DAYS,
  DEMO_HISTORY_MS,
  demoEnabled,
  demoLedgerClockOffsetMs,
  registerDemo,
} from './seed';
