import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import {
  ADMIN_MESSAGES,
  BONDING_CURVE_SUPPLY,
  feeConfigUpdateSchema,
  feeOverrideUpdateSchema,
  groupDigits,
  PLATFORM_CONFIG_KEYS,
  type FeeConfigView,
  type FeeOverrideView,
  type PlatformConfigKey,
  SEARCH_DEBOUNCE_MS,
} from '@ledgerpad/shared';
import { userMessage } from '../../lib/api';
import { requestResolver } from '../../lib/form-resolver';
import { adminKeys } from './keys';
import {
  updateFeeConfig,
  updateFeeOverride,
  updatePlatformConfig,
  useFeeConfig,
  useFeeOverrides,
  usePlatformConfig,
} from './api';

const SETTING_LABELS: Record<PlatformConfigKey, { label: string; hint: string }> = {
  service_fee: { label: 'Service fee (XRP)', hint: 'Charged per deploy.' },
  service_fee_destination: { label: 'Service fee destination', hint: 'An XRPL address, or empty.' },
  issuer_reserve: { label: 'Issuer reserve (XRP)', hint: 'At least the ledger’s base reserve.' },
  hot_wallet_reserve: { label: 'Hot wallet reserve (XRP)', hint: 'At least the ledger’s base reserve.' },
  airdrop_fee_xrp: { label: 'Airdrop fee (XRP)', hint: 'Charged per airdrop.' },
  creator_reward_share: { label: 'Creator reward share', hint: 'a/b or a decimal from 0 to 1.' },
  referral_share_percent: {
    label: 'Referral share (%)',
    hint: 'Of a referred user’s trading fees, 0–50; with the creator share at most 100%.',
  },
  referral_months: {
    label: 'Referral months',
    hint: 'How long a referral earns, 1–60 (fixed when it binds).',
  },
  bonding_virtual_xrp: {
    label: 'Curve virtual reserve (XRP)',
    hint: 'Sets the start price; 2.84× it is raised at graduation.',
  },
  bonding_virtual_rlusd: {
    label: 'Curve virtual reserve (RLUSD)',
    hint: 'The same for RLUSD-paired curves.',
  },
  bonding_steps: {
    label: 'Curve steps',
    hint: `A divisor of ${groupDigits(BONDING_CURVE_SUPPLY.toString())} (100, 200, 500, 1000…).`,
  },
  bonding_fine_steps: { label: 'Curve fine steps', hint: 'Offers one step each around the price (1–64).' },
  bonding_snipe_ledgers: {
    label: 'Anti-snipe ledgers',
    hint: 'Ledgers after launch with a sale cap (0 = none).',
  },
  bonding_snipe_tokens: {
    label: 'Anti-snipe tokens per ledger',
    hint: 'At most this many for sale per ledger.',
  },
  anti_sniper_start_percent: {
    label: 'Anti-sniper fee at launch (%)',
    hint: 'Surcharge on a curve’s prices when it opens, 0–50, decaying to 0.',
  },
  anti_sniper_window_seconds: {
    label: 'Anti-sniper window (seconds)',
    hint: 'How long the surcharge lasts, 0–600 (fixed at each launch).',
  },
};

/**
 * A save of one settings form: busy while it runs, the server's message (or `failMessage`) when it
 * fails; on success the audit log is refetched and `save`'s returned line is toasted.
 */
function useSave(failMessage: string) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (save: () => Promise<string>) => {
    setBusy(true);
    setError('');
    try {
      const done = await save();
      void queryClient.invalidateQueries({ queryKey: adminKeys.audit() });
      toast.success(done);
    } catch (err) {
      setError(userMessage(err, failMessage, { lead: true }));
    } finally {
      setBusy(false);
    }
  };
  return { queryClient, busy, error, run };
}

/** A settings panel's query: loading, failed (with its own line) or the content. */
function Loaded({
  query,
  failed,
  children,
}: {
  query: { isPending: boolean; isError: boolean };
  failed: string;
  children: () => ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="muted" aria-busy="true">
        Loading…
      </p>
    );
  if (query.isError)
    return (
      <p className="form-error" role="alert">
        {failed}
      </p>
    );
  return children();
}

/** Trading fee, platform settings and per-user fee overrides. */
export function SettingsTab() {
  return (
    <div className="admin-stack">
      <FeeSection />
      <PlatformSection />
      <OverridesSection />
    </div>
  );
}

function FeeSection() {
  const fee = useFeeConfig();
  return (
    <section className="panel" aria-labelledby="admin-fee-heading">
      <h2 id="admin-fee-heading">Trading fee</h2>
      <Loaded query={fee} failed="Failed to load the fee.">
        {() => <FeeForm current={fee.data!} />}
      </Loaded>
    </section>
  );
}

/** The fee form, once the fee is loaded: the server's own schema checks the percent before it is sent. */
function FeeForm({ current }: { current: FeeConfigView }) {
  const { queryClient, busy, error, run } = useSave(ADMIN_MESSAGES.saveFailed);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<{ fee_percentage: string }>({
    resolver: requestResolver(feeConfigUpdateSchema, (v) => ({ fee_percentage: v.fee_percentage.trim() })),
    defaultValues: { fee_percentage: current.fee_percentage },
  });
  const shown = errors.fee_percentage?.message ?? error;

  const onSubmit = ({ fee_percentage }: { fee_percentage: string }) =>
    run(async () => {
      const saved = await updateFeeConfig(fee_percentage.trim());
      queryClient.setQueryData(adminKeys.feeConfig(), saved);
      reset({ fee_percentage: saved.fee_percentage });
      return `Trading fee set to ${saved.fee_percentage}%`;
    });

  return (
    <form onSubmit={(e) => void handleSubmit(onSubmit)(e)} className="admin-form" noValidate>
      <label className="field">
        <span className="field-label">Trading fee (%)</span>
        <input
          className="input"
          inputMode="decimal"
          aria-invalid={errors.fee_percentage ? true : undefined}
          {...register('fee_percentage')}
          disabled={busy}
        />
      </label>
      <div className="field">
        <span className="field-label">Fee receiver wallet</span>
        <p className="address admin-readonly" aria-label="Fee receiver wallet">
          {current.fee_receiver_wallet ?? 'Not configured'}
        </p>
        <span className="field-hint">{ADMIN_MESSAGES.feeReceiverFixed}</span>
      </div>
      {shown && (
        <p className="form-error" role="alert">
          {shown}
        </p>
      )}
      <div className="admin-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save fee'}
        </button>
      </div>
    </form>
  );
}

function PlatformSection() {
  const config = usePlatformConfig();
  // Not on react-hook-form (issue 41 looked): platformConfigUpdateSchema checks only the keys (each
  // value's rule is the server's, per key, and its sentence comes back in the error line), and the
  // form sends only the keys edited, so a resolver would check nothing the browser can.
  const [edits, setEdits] = useState<Partial<Record<PlatformConfigKey, string>>>({});
  const { queryClient, busy, error, run } = useSave(ADMIN_MESSAGES.saveSettingsFailed);
  const current = new Map((config.data ?? []).map((e) => [e.key, e.value]));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const saved = await updatePlatformConfig(edits);
      queryClient.setQueryData(adminKeys.platformConfig(), saved);
      setEdits({});
      return 'Settings saved';
    });
  };

  return (
    <section className="panel" aria-labelledby="admin-platform-heading">
      <h2 id="admin-platform-heading">Platform settings</h2>
      <Loaded query={config} failed="Failed to load the settings.">
        {() => (
          <form onSubmit={onSubmit} className="admin-form">
            <div className="admin-settings-grid">
              {PLATFORM_CONFIG_KEYS.map((key) => (
                <label key={key} className="field">
                  <span className="field-label">{SETTING_LABELS[key].label}</span>
                  <input
                    className="input"
                    name={key}
                    value={edits[key] ?? current.get(key) ?? ''}
                    onChange={(e) => setEdits((s) => ({ ...s, [key]: e.target.value }))}
                    disabled={busy}
                  />
                  <span className="field-hint">{SETTING_LABELS[key].hint}</span>
                </label>
              ))}
            </div>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="admin-actions">
              <button type="submit" disabled={busy || Object.keys(edits).length === 0}>
                {busy ? 'Saving…' : 'Save settings'}
              </button>
            </div>
          </form>
        )}
      </Loaded>
    </section>
  );
}

function OverridesSection() {
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);
  const overrides = useFeeOverrides(debounced);

  return (
    <section className="panel" aria-labelledby="admin-overrides-heading">
      <h2 id="admin-overrides-heading">Per-user fee overrides</h2>
      <label className="field">
        <span className="field-label">Search users</span>
        <input
          className="input"
          type="search"
          placeholder="Name, email, user id or messenger id"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      <Loaded query={overrides} failed="Failed to load the users.">
        {() =>
          !overrides.data?.length ? (
            <p className="empty-state">No users match.</p>
          ) : (
            <ul className="admin-override-list">
              {overrides.data.map((u) => (
                <OverrideRow key={u.id} user={u} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

function OverrideRow({ user }: { user: FeeOverrideView }) {
  const { queryClient, busy, error, run } = useSave(ADMIN_MESSAGES.saveFailed);
  const name = user.username ?? user.email ?? `User ${user.id}`;
  // Empty is the platform's fee (null); anything else goes through the server's own percent check.
  const feeOf = (v: { custom_fee_percentage: string }) => v.custom_fee_percentage.trim() || null;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<{ custom_fee_percentage: string }>({
    resolver: requestResolver(feeOverrideUpdateSchema, (v) => ({
      userId: user.id,
      custom_fee_percentage: feeOf(v),
    })),
    defaultValues: { custom_fee_percentage: user.custom_fee_percentage ?? '' },
  });
  const shown = errors.custom_fee_percentage?.message ?? error;

  const save = (fee: string | null) =>
    run(async () => {
      await updateFeeOverride(user.id, fee);
      reset({ custom_fee_percentage: fee ?? '' });
      await queryClient.invalidateQueries({ queryKey: adminKeys.feeOverrides() });
      return fee === null ? `${name} uses the default fee` : `${name}'s fee set to ${fee}%`;
    });

  return (
    <li className="admin-override">
      <div className="admin-override-who">
        <strong>{name}</strong>
        <span className="muted">
          #{user.id}
          {user.email && user.username ? ` · ${user.email}` : ''}
        </span>
      </div>
      <form
        className="admin-override-form"
        onSubmit={(e) => void handleSubmit((v) => save(feeOf(v)))(e)}
        noValidate
      >
        <input
          className="input"
          inputMode="decimal"
          aria-label={`Fee % for ${name}`}
          placeholder="Default"
          aria-invalid={errors.custom_fee_percentage ? true : undefined}
          {...register('custom_fee_percentage')}
          disabled={busy}
        />
        <span aria-hidden="true">%</span>
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || user.custom_fee_percentage === null}
          onClick={() => void save(null)}
        >
          Default
        </button>
      </form>
      {shown && (
        <p className="form-error admin-override-error" role="alert">
          {shown}
        </p>
      )}
    </li>
  );
}
