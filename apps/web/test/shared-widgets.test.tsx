import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRUSTLINE_LIMIT_MESSAGES, WALLET_MESSAGES } from '@ledgerpad/shared';
import { ApiError } from '../src/lib/api';
import { LoadFailed } from '../src/components/load-failed';
import { SetLimitModal } from '../src/components/set-limit-modal';

// The widgets the features share instead of writing their own (issue 41): the load-failed block and
// the set-limit form. What each caller relied on before must still hold.

afterEach(() => cleanup());

describe('LoadFailed', () => {
  it('says what failed and asks again on Retry', () => {
    const onRetry = vi.fn();
    render(<LoadFailed message="Failed to load the tokens." onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(alert.tagName).toBe('DIV');
    expect(alert.textContent).toBe('Failed to load the tokens.Retry');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("adds the server's reason under the sentence only when it says more", () => {
    const said = 'The issuer wallet is not on the ledger.';
    const err = new ApiError(409, said, { message: said });
    const { rerender } = render(
      <LoadFailed
        className="error-inline"
        message="Could not load the split."
        error={err}
        onRetry={() => {}}
      />,
    );
    expect(screen.getByRole('alert').className).toBe('error-inline');
    expect(screen.getByText('The issuer wallet is not on the ledger.')).toBeTruthy();
    rerender(
      <LoadFailed message="Could not load the split." error={new Error('offline')} onRetry={() => {}} />,
    );
    expect(screen.getByRole('alert').querySelectorAll('p')).toHaveLength(1);
  });

  it('is the page panel when the whole page failed', () => {
    render(
      <LoadFailed as="section" className="panel" message="Could not load the airdrops." onRetry={() => {}} />,
    );
    expect(screen.getByRole('alert').tagName).toBe('SECTION');
    expect(screen.getByRole('alert').className).toBe('panel');
  });
});

describe('SetLimitModal', () => {
  const open = (onSubmit = vi.fn(), failure: string[] = []) => {
    render(
      <SetLimitModal
        title="Set RWD limit"
        description="The most RWD the wallet rHb9…dyTh will accept."
        balance="12"
        currentLimit="1,000,000"
        placeholder="1000000"
        pending={false}
        failure={failure}
        onSubmit={onSubmit}
        onClose={() => {}}
      />,
    );
    const field = screen.getByLabelText('New limit') as HTMLInputElement;
    const submit = () => fireEvent.submit(field.closest('form')!);
    return { field, submit, onSubmit };
  };

  it('refuses what the server would, with its sentences, and sends nothing', async () => {
    const { field, submit, onSubmit } = open();
    expect(field.placeholder).toBe('1000000');
    submit();
    await screen.findByText(WALLET_MESSAGES.fillAllFieldsImport);
    fireEvent.change(field, { target: { value: '-5' } });
    // The field keeps what was typed (it is not turned into 5) and the schema refuses it.
    expect(field.value).toBe('-5');
    submit();
    await screen.findByText(TRUSTLINE_LIMIT_MESSAGES.invalid);
    fireEvent.change(field, { target: { value: '12345678901234567' } });
    submit();
    await screen.findByText(TRUSTLINE_LIMIT_MESSAGES.precision);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the limit, a comma read as the decimal point', async () => {
    const { field, submit, onSubmit } = open();
    fireEvent.change(field, { target: { value: ' 2500,5 ' } });
    expect(field.value).toBe('2500.5');
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('2500.5'));
  });

  it("shows the caller's failure under the field", () => {
    open(vi.fn(), ['Could not set the limit.']);
    expect(screen.getByText('Could not set the limit.')).toBeTruthy();
    expect(screen.getByText('1,000,000')).toBeTruthy();
  });
});
