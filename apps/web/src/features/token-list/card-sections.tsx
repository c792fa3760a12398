import { FEATURES_PER_ROW } from '@ledgerpad/shared';

// The landing's card sections: the 3-step 'How It Works' and the ten 'Key Features' (spec 000 §1).

interface CardItem {
  title: string;
  text: string;
}

export const HOW_IT_WORKS: readonly CardItem[] = [
  { title: 'Log in', text: 'Sign in with your messenger or Google account. No wallet extension needed.' },
  { title: 'Deploy tokens', text: 'Name, ticker, supply and logo: your token and its AMM pool in one step.' },
  { title: 'Trade and manage', text: 'Buy, sell, add liquidity and manage holders from your dashboard.' },
];

/**
 * The landing's ten 'Key Features' (spec 000 §1), five per row on wide screens. The fees are the
 * platform's current ones (GET /api/config/fees: an admin's change shows here at once).
 */
export const keyFeatures = (fees: { trading: string; creation: string } | null): readonly CardItem[] => [
  {
    title: 'Token Deployment',
    text: 'Launch in one step, with an optional blackhole or full control kept.',
  },
  { title: 'Trading', text: 'Buy, sell, place limit orders and provide liquidity.' },
  {
    title: 'Multi-Wallet Management',
    text: 'Balances, trustlines and transactions of all your wallets.',
  },
  { title: 'Token Burner', text: 'Burn tokens for good, straight from your wallet.' },
  {
    title: 'Project Rewards',
    text: 'Creators earn rewards on every transaction of their token.',
  },
  {
    title: 'Lowest Fees',
    text: fees
      ? `A flat ${fees.trading}% trading fee, ${fees.creation} XRP to launch a token, and XRPL network fees of a fraction of a cent.`
      : 'A flat trading fee, a fixed launch fee, and XRPL network fees of a fraction of a cent.',
  },
  { title: 'Multi-Wallet Actions', text: 'Buy or sell from several wallets at once.' },
  { title: 'RLUSD Support', text: 'Pair your token with the RLUSD stablecoin instead of XRP.' },
  {
    title: 'Positions and Orders',
    text: 'Profit and loss of your positions; open orders at a glance.',
  },
  {
    title: 'Tokens Dashboard',
    text: 'Holders, trust lines, freezes and issuer settings of your tokens.',
  },
];

/**
 * A panel of numbered cards. Steps: three in a row (one on phones). Features: five per row
 * (FEATURES_PER_ROW), fewer as the screen narrows.
 */
export function CardSection({
  id,
  title,
  items,
  variant,
}: {
  id: string;
  title: string;
  items: readonly CardItem[];
  variant: 'steps' | 'features';
}) {
  const List = variant === 'steps' ? 'ol' : 'ul';
  return (
    <section className={`panel cards-${variant}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <List
        className={`cards cards-list-${variant}`}
        style={variant === 'features' ? { ['--features-per-row' as string]: FEATURES_PER_ROW } : undefined}
      >
        {items.map((item, i) => (
          <li key={item.title} className="card-item">
            <span className="card-badge" aria-hidden="true">
              {i + 1}
            </span>
            <h3>{item.title}</h3>
            <p className="muted">{item.text}</p>
          </li>
        ))}
      </List>
    </section>
  );
}
