import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type MouseEvent,
  type PointerEvent,
} from 'react';

/**
 * How long after a confirmation appears before a click on it counts (issue 39). A double click takes
 * 100–300 ms between its two clicks; 400 ms is past that and still well under a deliberate reading.
 */
export const DELIBERATE_DELAY_MS = 400;

/**
 * A confirm button a double click can't satisfy (issue 39). A click counts only when its pointerdown
 * happened at least `delayMs` after the button appeared (or after `armKey` last changed: the thing it
 * confirms changed), so the second click of a double click on 'Review' or 'Buy', landing where the
 * confirm button has just appeared, does nothing, and a click that began before it appeared never
 * counts. For that delay the button is also disabled: it looks not ready yet, and automation and
 * assistive tools wait for it like a user would. A keyboard press (no pointer) counts once enabled.
 * Every confirm dialog uses it (ConfirmDialog, ConfirmActions, the swap box's high-impact step).
 */
export function DeliberateButton({
  onClick,
  onPointerDown,
  delayMs = DELIBERATE_DELAY_MS,
  armKey,
  disabled,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & {
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  delayMs?: number;
  /** Anything that names what is confirmed: when it changes, the delay starts again. */
  armKey?: unknown;
}) {
  const shownAt = useRef(0);
  const downAt = useRef<number | null>(null);
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    shownAt.current = Date.now();
    downAt.current = null;
    setReady(false);
  }, [armKey]);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setReady(true), delayMs);
    return () => clearTimeout(timer);
  }, [ready, delayMs, armKey]);
  return (
    <button
      type="button"
      {...props}
      disabled={disabled || !ready}
      onPointerDown={(e: PointerEvent<HTMLButtonElement>) => {
        downAt.current = Date.now();
        onPointerDown?.(e);
      }}
      onClick={(e) => {
        const down = downAt.current;
        downAt.current = null;
        // A pointer click is judged by when it began; a keyboard or assistive one (detail 0, no
        // pointer) by when it happens.
        const began = e.detail === 0 ? Date.now() : down;
        if (began === null || began - shownAt.current < delayMs) {
          e.preventDefault();
          return;
        }
        onClick(e);
      }}
    />
  );
}
