import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import type { User } from '@ledgerpad/shared';
import { displayName } from '../lib/session';
import { useHoverMenu } from '../lib/use-pointer-leave-close';

/**
 * The signed-in dropdown (spec §2): avatar only when photo_url exists, 'Welcome, <name>', one item
 * 'Logout'. Closes on an outside click, on Escape, when the user changes and 300 ms after the
 * pointer leaves. Non-modal for the same reason as the XRPL Tools menu.
 */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const { setOpen, rootProps, handlers } = useHoverMenu();
  const [shownFor, setShownFor] = useState(user.id);

  // A different user: close during render rather than in an effect, so the old menu never paints.
  if (shownFor !== user.id) {
    setShownFor(user.id);
    setOpen(false);
  }

  return (
    <DropdownMenu.Root {...rootProps}>
      <DropdownMenu.Trigger className="user-button" {...handlers}>
        <UserAvatar user={user} />
        <span className="user-name">Welcome, {displayName(user)}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="dropdown"
          align="end"
          sideOffset={6}
          collisionPadding={8}
          {...handlers}
        >
          <DropdownMenu.Item className="dropdown-item" onSelect={onLogout}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The avatar shows only when the user has a photo (spec §2) on our own origin or as data: — the CSP
 * allows no other image source (issue 24), so a messenger's photo URL would only show broken.
 */
export function UserAvatar({ user }: { user: User }) {
  if (!user.photo_url || !/^(?:\/(?!\/)|data:image\/)/.test(user.photo_url)) return null;
  return <img src={user.photo_url} alt="" className="avatar" width={28} height={28} />;
}
