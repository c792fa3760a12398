import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { describe, expect, it } from 'vitest';
import { Toaster } from '../src/components/toaster';
import { useAfterIdle } from '../src/lib/use-after-idle';

// The toast area mounts once the page is idle (components/layout.tsx, issue 40: its chunk no longer
// competes with the landing list's). A toast raised before that must still be shown when it mounts.

function LateToaster() {
  return useAfterIdle() ? <Toaster /> : null;
}

describe('the deferred toast area', () => {
  it('shows a toast raised before it mounted', async () => {
    render(<LateToaster />);
    // Raised at once, before the idle moment: nothing renders it yet.
    act(() => {
      toast.success('Copied before the toaster');
    });
    expect(screen.queryByText('Copied before the toaster')).toBeNull();
    expect(await screen.findByText('Copied before the toaster', {}, { timeout: 3_000 })).toBeTruthy();
  });
});
