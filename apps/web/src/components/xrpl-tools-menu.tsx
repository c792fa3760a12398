import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useHoverMenu } from '../lib/use-pointer-leave-close';
import { TOOLS_PATHS } from './nav-items';

/**
 * The 'XRPL Tools' dropdown of the desktop menu bar (spec §2): Burner, Buy XRP, Token Dashboard
 * for users who deployed a token, and Referrals (issue 37: every user's link and earnings). Radix gives it the menu keyboard model (Enter/Space/arrows open
 * and move, Escape closes and returns focus to the trigger); it also closes on navigation, on an
 * outside click and 300 ms after the pointer leaves. Non-modal, so the rest of the page keeps its
 * hover and the pointer-leave rule can see the pointer.
 */
export function XrplToolsMenu({
  hasDeployed,
  onBuyXrp,
}: {
  hasDeployed: boolean;
  onBuyXrp: (origin: HTMLElement | null) => void;
}) {
  const { pathname } = useLocation();
  const { setOpen, rootProps, handlers } = useHoverMenu();
  // Set when 'Buy XRP' is chosen: the dialog takes focus, so the menu must not hand it back.
  const keepFocus = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const active = TOOLS_PATHS.some((path) => pathname === path);

  useEffect(() => setOpen(false), [pathname, setOpen]);

  return (
    <DropdownMenu.Root {...rootProps}>
      <DropdownMenu.Trigger
        ref={trigger}
        className={active ? 'menu-link menu-trigger active' : 'menu-link menu-trigger'}
        {...handlers}
      >
        XRPL Tools
        <svg className="chevron" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
          <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="dropdown"
          align="start"
          sideOffset={6}
          collisionPadding={8}
          onCloseAutoFocus={(event) => {
            if (keepFocus.current) event.preventDefault();
            keepFocus.current = false;
          }}
          {...handlers}
        >
          <DropdownMenu.Item asChild>
            <NavLink to="/burner" className="dropdown-item">
              Burner
            </NavLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="dropdown-item"
            onSelect={() => {
              keepFocus.current = true;
              onBuyXrp(trigger.current);
            }}
          >
            Buy XRP
          </DropdownMenu.Item>
          {hasDeployed && (
            <DropdownMenu.Item asChild>
              <NavLink to="/dashboard" className="dropdown-item">
                Token Dashboard
              </NavLink>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item asChild>
            <NavLink to="/referrals" className="dropdown-item">
              Referrals
            </NavLink>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
