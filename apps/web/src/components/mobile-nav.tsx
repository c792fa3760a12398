import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import type { User } from '@ledgerpad/shared';
import { displayName } from '../lib/session';
import { ADMIN_ITEM, MENU_ITEMS } from './nav-items';
import { UserAvatar } from './user-menu';

/**
 * Below MOBILE_BREAKPOINT_PX the menu bar does not fit: a menu button opens a drawer (a Radix
 * dialog: focus trapped inside, Escape and the overlay close it, focus returns to the button) with
 * the same items, the XRPL Tools, the welcome line and Logout. Following a link closes it.
 */
export function MobileNav({
  user,
  hasDeployed,
  isAdmin,
  onLogout,
  onBuyXrp,
}: {
  user: User;
  hasDeployed: boolean;
  isAdmin: boolean;
  onLogout: () => void;
  onBuyXrp: (origin: HTMLElement | null) => void;
}) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  // Set when 'Buy XRP' is chosen: the dialog takes focus, so the drawer must not hand it back.
  const keepFocus = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [pathname, user.id]);

  const close = () => setOpen(false);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger ref={trigger} className="menu-button" aria-label="Menu">
        <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
          <path d="M3 6h16M3 11h16M3 16h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="drawer"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            if (keepFocus.current) event.preventDefault();
            keepFocus.current = false;
          }}
        >
          <div className="drawer-header">
            <Dialog.Title className="drawer-title">Menu</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close menu">
              <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
                <path d="M4 4l10 10M14 4L4 14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          </div>
          <p className="drawer-user">
            <UserAvatar user={user} />
            <span>Welcome, {displayName(user)}</span>
          </p>
          <nav aria-label="Main" className="drawer-nav">
            {pathname !== '/' && (
              <Link to="/" className="drawer-link" onClick={close}>
                Token List
              </Link>
            )}
            {MENU_ITEMS.map((item) => (
              <DrawerLink key={item.to} to={item.to} label={item.label} onClick={close} />
            ))}
            {isAdmin && <DrawerLink to={ADMIN_ITEM.to} label={ADMIN_ITEM.label} onClick={close} />}
          </nav>
          <section className="drawer-section" aria-labelledby="drawer-tools-title">
            <h2 id="drawer-tools-title" className="drawer-section-title">
              XRPL Tools
            </h2>
            <DrawerLink to="/burner" label="Burner" onClick={close} />
            <button
              type="button"
              className="drawer-link"
              onClick={() => {
                keepFocus.current = true;
                setOpen(false);
                onBuyXrp(trigger.current);
              }}
            >
              Buy XRP
            </button>
            {hasDeployed && <DrawerLink to="/dashboard" label="Token Dashboard" onClick={close} />}
            <DrawerLink to="/referrals" label="Referrals" onClick={close} />
          </section>
          <button
            type="button"
            className="drawer-logout"
            onClick={() => {
              close();
              onLogout();
            }}
          >
            Logout
          </button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DrawerLink({ to, label, onClick }: { to: string; label: string; onClick: () => void }) {
  return (
    <NavLink to={to} className="drawer-link" onClick={onClick}>
      {label}
    </NavLink>
  );
}
