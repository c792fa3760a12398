import { useEffect, useRef, useState } from 'react';
import { DROPDOWN_CLOSE_DELAY_MS, type User } from '@ledgerpad/shared';
import { displayName } from '../lib/session';

/**
 * The signed-in dropdown (spec §2): avatar only when photo_url exists, 'Welcome, <name>', one item
 * 'Logout'. Closes when the user changes, on an outside click, and 300 ms after the pointer leaves.
 */
export function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const leaveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => setOpen(false), [user.id]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => () => clearTimeout(leaveTimer.current), []);

  return (
    <div
      className="user-menu"
      ref={root}
      onMouseLeave={() => {
        leaveTimer.current = setTimeout(() => setOpen(false), DROPDOWN_CLOSE_DELAY_MS);
      }}
      onMouseEnter={() => clearTimeout(leaveTimer.current)}
    >
      <button type="button" className="user-button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {user.photo_url && <img src={user.photo_url} alt="" className="avatar" width={28} height={28} />}
        <span>Welcome, {displayName(user)}</span>
      </button>
      {open && (
        <ul className="dropdown" role="menu">
          <li role="none">
            <button type="button" role="menuitem" onClick={onLogout}>
              Logout
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
