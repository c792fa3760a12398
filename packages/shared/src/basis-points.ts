import { Decimal } from './money';

// Basis points, as a reward split stores its shares (10,000 = 100%). A plain module: the token
// page's split card shows them, and in schemas/rewards.ts they brought zod into its chunk.

/** 100% in basis points. */
export const BPS_TOTAL = 10_000;

/** A percent typed in the editor ('33.33') → basis points (3333); null when not 0.01–100 in 0.01 steps. */
export function percentToBps(text: string): number | null {
  const v = text.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(v)) return null;
  const bps = new Decimal(v).mul(100).toNumber();
  return bps >= 1 && bps <= BPS_TOTAL ? bps : null;
}

/** Basis points → the percent the editor shows (3333 → '33.33', 5000 → '50'). */
export function bpsToPercent(bps: number): string {
  return new Decimal(bps).div(100).toFixed();
}
