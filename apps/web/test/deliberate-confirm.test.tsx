import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../server/test/helpers/wait';
import { ConfirmDialog } from '../src/components/confirm-dialog';
import { DELIBERATE_DELAY_MS, DeliberateButton } from '../src/components/deliberate-button';
import { Modal } from '../src/components/modal';

// Confirmations a double click can't satisfy (issue 39): the shared DeliberateButton (every confirm
// dialog's confirm button) and the Modal's outside-click guard. The clock (Date) is set by the test,
// so 'when the pointer went down' is exact; the button's own 400 ms timer runs for real.

const T0 = Date.parse('2026-11-29T12:00:00Z');
const at = (ms: number) => vi.setSystemTime(T0 + ms);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  at(0);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A pointer click: pointerdown at `downAt`, the click (detail 1) at `clickAt`. */
function pointerClick(el: HTMLElement, downAt: number, clickAt = downAt + 80) {
  at(downAt);
  fireEvent.pointerDown(el);
  at(clickAt);
  fireEvent.click(el, { detail: 1 });
}

describe('DeliberateButton', () => {
  it('is disabled for 400 ms after it appears, then counts only clicks whose pointerdown came after that', async () => {
    const onClick = vi.fn();
    render(<DeliberateButton onClick={onClick}>Confirm</DeliberateButton>);
    const button = screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
    expect(DELIBERATE_DELAY_MS).toBe(400);
    expect(button.disabled).toBe(true);
    await waitFor(() => expect(button.disabled).toBe(false));
    // The second click of a double click: it began 120 ms after the button appeared.
    pointerClick(button, 120, 450);
    expect(onClick).not.toHaveBeenCalled();
    // A click without a pointerdown on it (it began on what stood there before): never counts.
    at(600);
    fireEvent.click(button, { detail: 1 });
    expect(onClick).not.toHaveBeenCalled();
    // A fresh click, begun after the delay.
    pointerClick(button, 700);
    expect(onClick).toHaveBeenCalledTimes(1);
    // Keyboard (detail 0, no pointer) once enabled.
    at(900);
    fireEvent.click(button, { detail: 0 });
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('starts the delay again when what it confirms changes (armKey)', async () => {
    const onClick = vi.fn();
    const { rerender } = render(
      <DeliberateButton onClick={onClick} armKey="18.23">
        Confirm
      </DeliberateButton>,
    );
    const button = screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    at(1_000);
    rerender(
      <DeliberateButton onClick={onClick} armKey="24.10">
        Confirm
      </DeliberateButton>,
    );
    expect(button.disabled).toBe(true);
    await waitFor(() => expect(button.disabled).toBe(false));
    pointerClick(button, 1_200);
    expect(onClick).not.toHaveBeenCalled();
    pointerClick(button, 1_450);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});

describe('ConfirmDialog', () => {
  it('a double click on the button that opened it does not confirm; a deliberate click does', async () => {
    const onConfirm = vi.fn();
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Remove
          </button>
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title="Remove wallet?"
            confirmLabel="Remove wallet"
            busyLabel="Removing…"
            onConfirm={onConfirm}
          >
            It is gone for good.
          </ConfirmDialog>
        </>
      );
    }
    render(<Opener />);
    pointerClick(screen.getByRole('button', { name: 'Remove' }), 0, 60);
    const confirm = (await screen.findByRole('button', { name: 'Remove wallet' })) as HTMLButtonElement;
    // The double click's second press lands where the confirm button now is: nothing.
    pointerClick(confirm, 150, 210);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await waitFor(() => expect(confirm.disabled).toBe(false));
    pointerClick(confirm, 800);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

/** A press on the backdrop (Radix judges it on pointerdown, or on the click that follows). */
function outsidePress() {
  fireEvent.pointerDown(document.body, { button: 0 });
  fireEvent.pointerUp(document.body, { button: 0 });
  fireEvent.click(document.body, { button: 0 });
}

describe('Modal', () => {
  let resized: Array<() => void>;
  beforeEach(() => {
    resized = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly cb: () => void) {
          resized.push(() => this.cb());
        }
        observe() {}
        disconnect() {}
      },
    );
  });

  it('keeps its form on an outside click right after it appears or changes size; closes on a later one', async () => {
    const onOpenChange = vi.fn();
    render(
      <Modal open onOpenChange={onOpenChange} title="Send">
        <input aria-label="Amount" defaultValue="12" />
      </Modal>,
    );
    await screen.findByRole('dialog');
    // Radix listens for outside presses from the next tick.
    await act(() => sleep(10));
    at(150);
    outsidePress();
    expect(onOpenChange).not.toHaveBeenCalled();
    // The form became its (smaller) confirm step: the box changed size at 2 s.
    at(2_000);
    for (const r of resized) r();
    at(2_200);
    outsidePress();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('12');
    // The second press of a double click whose first was inside (on 'Review'), before the browser
    // reported the new size: not a close either.
    at(3_000);
    fireEvent.pointerDown(screen.getByLabelText('Amount'));
    at(3_150);
    outsidePress();
    expect(onOpenChange).not.toHaveBeenCalled();
    // A deliberate click outside, well after: closes as always.
    at(4_000);
    outsidePress();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
