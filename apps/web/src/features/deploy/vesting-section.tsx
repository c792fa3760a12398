import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import {
  Decimal,
  formatMoney,
  rippleTime,
  vestingSchema,
  vestingTranches,
  type VestingSettingsInput,
} from '@ledgerpad/shared';
import { TextField } from '../../components/form-field';
import { VestingTable } from '../../components/vesting-table';

// 'Lock the dev allocation' (issue 28): the deploy form's section and the preview's schedule. The
// settings are checked by the request's own schema (vestingSchema inside deployRequestSchema).

export interface VestingValues {
  enabled: boolean;
  cliffPercent: string;
  cliffHours: string;
  months: string;
}

export const VESTING_FORM_DEFAULTS: VestingValues = {
  enabled: true,
  cliffPercent: '25',
  cliffHours: '24',
  months: '6',
};

/** The request's `vesting`: only when there is a dev allocation to lock. */
export function vestingRequest(v: VestingValues, devAllocation: string): VestingSettingsInput | undefined {
  const dev = /^\d+(\.\d+)?$/.test(devAllocation) ? new Decimal(devAllocation) : new Decimal(0);
  if (!dev.gt(0)) return undefined;
  return { ...v, months: /^\d+$/.test(v.months) ? Number(v.months) : (v.months as unknown as number) };
}

export function VestingSection({
  register,
  errors,
  enabled,
  errorId,
}: {
  register: UseFormRegister<{ vesting: VestingValues } & Record<string, unknown>>;
  errors: FieldErrors<VestingValues> | undefined;
  enabled: boolean;
  errorId: string;
}) {
  return (
    <fieldset className="vesting-section" data-testid="vesting-section" aria-label="Dev allocation vesting">
      <label className="checkbox">
        <input type="checkbox" {...register('vesting.enabled')} /> Lock the dev allocation
      </label>
      <p className="field-hint">
        Escrowed on the XRP Ledger from your wallet to itself: no one, not even Ledgerpad, can release a
        tranche before its date, and anyone can check it.
      </p>
      {enabled && (
        <div className="form-grid">
          <TextField
            label="Released after the cliff (%)"
            inputMode="decimal"
            invalid={!!errors?.cliffPercent}
            errorId={errorId}
            {...register('vesting.cliffPercent')}
          />
          <TextField
            label="Cliff (hours)"
            inputMode="decimal"
            invalid={!!errors?.cliffHours}
            errorId={errorId}
            {...register('vesting.cliffHours')}
          />
          <TextField
            label="The rest monthly over (months, 1–12)"
            inputMode="numeric"
            invalid={!!errors?.months}
            errorId={errorId}
            {...register('vesting.months')}
          />
        </div>
      )}
    </fieldset>
  );
}

/** The preview's schedule, from now (the server fixes the real start when it takes the deploy). */
export function VestingPreview({
  values,
  allocation,
  ticker,
}: {
  values: VestingValues;
  allocation: string;
  ticker: string;
}) {
  const parsed = vestingSchema.safeParse(vestingRequest(values, '1'));
  if (!parsed.success || !parsed.data.enabled) return null;
  const tranches = vestingTranches(allocation, parsed.data, rippleTime.fromUnixMs(Date.now()));
  if (tranches.length === 0) return null;
  return (
    <div className="vesting-preview" data-testid="vesting-preview">
      <h3>Dev allocation locked on the ledger</h3>
      <VestingTable
        rows={tranches.map((t) => ({
          index: t.index,
          amount: `${formatMoney(t.amount, ticker)} ${ticker}`,
          unlockAt: rippleTime.toIso(t.unlockAt),
        }))}
      />
    </div>
  );
}
