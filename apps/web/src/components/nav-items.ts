// The signed-in menu of spec §2, shared by the desktop menu bar and the mobile drawer.
export const MENU_ITEMS = [
  { to: '/deploy-list', label: 'Deploy and List' },
  { to: '/swap', label: 'Swap' },
  { to: '/wallets', label: 'Wallets' },
  { to: '/airdrops', label: 'Airdrops' },
  { to: '/positions', label: 'Positions' },
  { to: '/orders', label: 'Orders Manager' },
  { to: '/list-token', label: 'List Any Token' },
] as const;

/** The routes behind the 'XRPL Tools' dropdown; the trigger reads as active on them. */
export const TOOLS_PATHS = ['/burner', '/dashboard', '/referrals'] as const;

/** Shown after the menu to admins only (GET /api/admin/check said yes). */
export const ADMIN_ITEM = { to: '/admin', label: 'Admin' } as const;
