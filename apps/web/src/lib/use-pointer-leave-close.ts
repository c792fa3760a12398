import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { DROPDOWN_CLOSE_DELAY_MS } from '@ledgerpad/shared';

/**
 * Spec §2: a dropdown closes 300 ms after the pointer leaves it. Spread the handlers on the trigger
 * and on the (portalled) content, so moving from one to the other keeps it open. Only a mouse
 * "leaves": a touch pointer leaves on every lift of the finger.
 */
function usePointerLeaveClose(close: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const cancel = useCallback(() => clearTimeout(timer.current), []);
  const onPointerLeave = useCallback((event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => closeRef.current(), DROPDOWN_CLOSE_DELAY_MS);
  }, []);
  return { handlers: { onPointerLeave, onPointerEnter: cancel }, cancel };
}

/**
 * The state of a header dropdown: open flag, the props of a non-modal Radix `DropdownMenu.Root`
 * (an open/close cancels a pending pointer-leave close) and the pointer handlers for its trigger
 * and content.
 */
export function useHoverMenu() {
  const [open, setOpen] = useState(false);
  const { handlers, cancel } = usePointerLeaveClose(() => setOpen(false));
  const onOpenChange = useCallback(
    (next: boolean) => {
      cancel();
      setOpen(next);
    },
    [cancel],
  );
  return { open, setOpen, rootProps: { modal: false, open, onOpenChange }, handlers };
}
