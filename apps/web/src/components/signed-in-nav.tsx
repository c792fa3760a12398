import { useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { User } from '@ledgerpad/shared';
import { useIsMobile } from '../lib/use-is-mobile';
import { BuyXrpDialog } from './buy-xrp-dialog';
import { MobileNav } from './mobile-nav';
import { ADMIN_ITEM, MENU_ITEMS } from './nav-items';
import { UserMenu } from './user-menu';
import { XrplToolsMenu } from './xrpl-tools-menu';

/**
 * The signed-in part of the header. Wide screens: the user menu, then the menu bar with XRPL Tools
 * on a row of its own (the whole menu is wider than one header row even at 1280 px). Below
 * MOBILE_BREAKPOINT_PX: a menu button and a drawer. Loaded on demand, with the Radix menus and
 * dialogs, so anonymous visitors never download it.
 */
export function SignedInNav({
  user,
  hasDeployed,
  isAdmin,
  onLogout,
}: {
  user: User;
  hasDeployed: boolean;
  isAdmin: boolean;
  onLogout: () => void;
}) {
  const isMobile = useIsMobile();
  const { pathname } = useLocation();
  const [buyOpen, setBuyOpen] = useState(false);
  // Where focus goes when the Buy XRP dialog closes: the control that led to it.
  const buyOrigin = useRef<HTMLElement | null>(null);
  const openBuy = (origin: HTMLElement | null) => {
    buyOrigin.current = origin;
    setBuyOpen(true);
  };

  return (
    <>
      {isMobile ? (
        <MobileNav
          user={user}
          hasDeployed={hasDeployed}
          isAdmin={isAdmin}
          onLogout={onLogout}
          onBuyXrp={openBuy}
        />
      ) : (
        <>
          <div className="session-area">
            <UserMenu user={user} onLogout={onLogout} />
          </div>
          <nav className="menu menu-bar" aria-label="Main">
            {pathname !== '/' && (
              <Link to="/" className="menu-link">
                Token List
              </Link>
            )}
            {MENU_ITEMS.map((item) => (
              <NavLink key={item.to} to={item.to} className="menu-link">
                {item.label}
              </NavLink>
            ))}
            <XrplToolsMenu hasDeployed={hasDeployed} onBuyXrp={openBuy} />
            {isAdmin && (
              <NavLink to={ADMIN_ITEM.to} className="menu-link">
                {ADMIN_ITEM.label}
              </NavLink>
            )}
          </nav>
        </>
      )}
      <BuyXrpDialog open={buyOpen} onOpenChange={setBuyOpen} returnFocusTo={buyOrigin} />
    </>
  );
}
