import * as Tabs from '@radix-ui/react-tabs';
import { useAdminStatus } from '../../lib/admin-check';
import { AdminsTab } from './admins-tab';
import { AuditTab } from './audit-tab';
import { DeployWalletsTab } from './deploy-wallets-tab';
import { RewardsTab } from './rewards-tab';
import { SettingsTab } from './settings-tab';
import { TokensTab } from './tokens-tab';
import { WalletsTab } from './wallets-tab';
import './admin.css';

export const CHECKING_CREDENTIALS = 'Checking credentials...';
export const NOT_AN_ADMIN = 'Nice try. This door only opens for admins.';

const TABS = [
  { value: 'rewards', label: 'Rewards', Tab: RewardsTab },
  { value: 'settings', label: 'Settings', Tab: SettingsTab },
  { value: 'admins', label: 'Admins', Tab: AdminsTab },
  { value: 'tokens', label: 'Tokens', Tab: TokensTab },
  { value: 'deploy-wallets', label: 'Deployment Wallets', Tab: DeployWalletsTab },
  { value: 'wallets', label: 'Wallet Overview', Tab: WalletsTab },
  { value: 'audit', label: 'Audit', Tab: AuditTab },
] as const;

/**
 * /admin (spec 001 §2 Admin): the credential check first (the user object's isAdmin); non-admins get
 * a short refusal and no admin data is ever requested. Admins get the tabs, each loading its data
 * when opened.
 */
export function AdminPage() {
  const check = useAdminStatus();
  const isAdmin = check.state === 'known' && check.isAdmin;

  return (
    <div className="admin-page">
      <div className="page-title-row">
        <h1>Admin</h1>
        {check.state === 'known' && check.isOwner && <span className="admin-badge">Owner</span>}
      </div>
      {check.state !== 'known' ? (
        <p className="muted admin-state" aria-busy="true">
          {CHECKING_CREDENTIALS}
        </p>
      ) : !isAdmin ? (
        <section className="panel admin-refusal" role="alert">
          <p>{NOT_AN_ADMIN}</p>
        </section>
      ) : (
        <AdminTabs />
      )}
    </div>
  );
}

function AdminTabs() {
  return (
    <Tabs.Root defaultValue="rewards" className="admin-tabs-root">
      <Tabs.List className="admin-tabs" aria-label="Admin sections">
        {TABS.map((t) => (
          <Tabs.Trigger key={t.value} value={t.value} className="admin-tab">
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {TABS.map(({ value, Tab }) => (
        <Tabs.Content key={value} value={value} className="admin-tab-content">
          <Tab />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
