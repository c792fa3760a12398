import type { RiskReport } from '@ledgerpad/shared';

// What a buyer should know before trading (from the indexed issuer facts): each fact with a plain
// reading, good facts green, risky ones amber, and the server's one-line verdict on top.

interface Fact {
  label: string;
  value: string;
  tone: 'good' | 'warn' | 'neutral';
}

function facts(r: RiskReport): Fact[] {
  const pct = (v: string | null) => (v === null ? 'N/A' : `${v}%`);
  return [
    {
      label: 'Issuer',
      value: r.blackholed ? 'Blackholed: supply is fixed' : 'Can still sign',
      tone: r.blackholed ? 'good' : 'warn',
    },
    {
      label: 'Regular key',
      value: r.regularKey ?? 'None',
      tone: r.regularKey && !r.blackholed ? 'warn' : 'neutral',
    },
    {
      label: 'Authorization required',
      value: r.requireAuth ? 'Yes: holders need the issuer’s approval' : 'No',
      tone: r.requireAuth ? 'warn' : 'good',
    },
    {
      label: 'Freeze',
      value: r.globalFreeze
        ? 'Frozen now'
        : r.noFreeze
          ? 'Gave up freezing'
          : r.blackholed
            ? 'Cannot sign to freeze'
            : 'Can freeze',
      tone: r.globalFreeze ? 'warn' : r.noFreeze || r.blackholed ? 'good' : 'warn',
    },
    { label: 'Clawback', value: r.clawback ? 'Enabled' : 'Disabled', tone: r.clawback ? 'warn' : 'good' },
    {
      label: 'Transfer fee',
      value: `${r.transferFeePercent}%`,
      tone: r.transferFeePercent === '0' ? 'good' : 'warn',
    },
    { label: 'Dev allocation', value: pct(r.devSharePercent), tone: 'neutral' },
    {
      label: 'Top 10 holders',
      value: `${r.top10SharePercent}%`,
      tone: Number(r.top10SharePercent) > 50 ? 'warn' : 'neutral',
    },
    {
      label: 'LP locked',
      value: pct(r.lpLockedPercent),
      tone: r.lpLockedPercent === null ? 'neutral' : Number(r.lpLockedPercent) > 0 ? 'good' : 'warn',
    },
  ];
}

export function RiskPanel({
  risk,
  loading,
  failed,
}: {
  risk: RiskReport | undefined;
  loading: boolean;
  failed: boolean;
}) {
  return (
    <section className="panel risk-panel" aria-labelledby="risk-title" data-testid="risk-panel">
      <h2 id="risk-title" className="panel-title">
        Risk check
      </h2>
      {loading ? (
        <p className="muted">Checking the issuer…</p>
      ) : failed || !risk ? (
        <p className="muted">The risk check could not be loaded.</p>
      ) : (
        <>
          <p className="risk-verdict" data-testid="risk-verdict">
            {risk.verdict}
          </p>
          <dl className="risk-facts">
            {facts(risk).map((f) => (
              <div key={f.label} className={`risk-fact ${f.tone}`}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}
