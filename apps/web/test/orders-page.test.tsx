import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../server/test/helpers/wait';
import {
  ORDERS_STATUS_CHECK_MS,
  formatAmount,
  tickerToCurrency,
  type OrderStatus,
  type OrderView,
  type User,
} from '@ledgerpad/shared';
import { OrdersPage } from '../src/features/orders/orders-page';
import { applyOrderUpdate, withLocalCancels } from '../src/features/orders/order-status';
import { FakeSocket } from './fake-socket';
import { stubFetch, withProviders, type FetchAnswer } from './support';

// The orders page (spec 001 §2 Orders) rendered for real against stubbed API answers: PAY/GET by
// side, Cancel only on resting orders, 20 per page, the cancel flow, live orderUpdated frames (a
// locally cancelled order stays canceled) and the 60 s status check.

const USER: User = {
  id: 7,
  username: 'trader',
  first_name: null,
  photo_url: null,
  email: null,
  telegram_id: null,
  google_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const WALLET = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

function order(id: number, over: Partial<OrderView> = {}): OrderView {
  return {
    id,
    wallet_address: WALLET,
    status: 'open',
    order_type: 'BUY',
    token_currency: 'ABCD',
    token_issuer: ISSUER,
    quote: 'XRP',
    amount: '12.5',
    expected_tokens: '2500',
    remaining_tokens: '2500',
    price: '0.005',
    created_at: new Date(Date.UTC(2026, 0, 1, 12) - id * 60_000).toISOString(),
    expires_at: null,
    hash: 'A'.repeat(64),
    ...over,
  };
}

let orders: OrderView[];
let ordersAnswer: () => FetchAnswer;
let cancelAnswer: (id: number) => FetchAnswer;
let calls: string[];

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  orders = [];
  ordersAnswer = () => ({ body: orders });
  cancelAnswer = (id) => ({ body: { ...orders.find((o) => o.id === id)!, status: 'canceled' } });
  ({ calls } = stubFetch((path) => {
    if (path === '/api/session') return { body: { user: USER } };
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/auth/socket-token') return { body: { token: 't' } };
    if (path === '/api/wallets/balances') return { body: [] };
    if (path === '/api/check-orders-status') return { body: { checked: orders.length, updated: [] } };
    if (path.startsWith(`/api/orders/get-orders/${USER.id}`)) return ordersAnswer();
    const cancel = /^\/api\/cancel-order\/(\d+)$/.exec(path);
    if (cancel) return cancelAnswer(Number(cancel[1]));
    return undefined;
  }));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function mount() {
  render(withProviders(<OrdersPage />, '/orders'));
  await screen.findByRole('heading', { level: 1, name: 'Your Open Orders' });
}

/** The body rows of the orders table, once it shows. */
async function rows() {
  const table = await screen.findByRole('table');
  return within(table).getAllByRole('row').slice(1);
}

const cells = (row: HTMLElement) => within(row).getAllByRole('cell');
const COLUMNS = [
  'Type',
  'Token',
  'PAY (XRP)',
  'GET (XRP)',
  'Amount of Tokens',
  'Price (XRP)',
  'Wallet',
  'Date',
  'Status',
  'Actions',
];
const cell = (row: HTMLElement, column: string) => cells(row)[COLUMNS.indexOf(column)]!;

describe('orders table', () => {
  it('has the spec’s columns', async () => {
    orders = [order(1)];
    await mount();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(COLUMNS);
  });

  it('shows a buy’s amount under PAY and a sell’s under GET, with RLUSD named on RLUSD rows', async () => {
    orders = [
      order(1, { order_type: 'BUY', amount: '12.5' }),
      order(2, { order_type: 'SELL', amount: '40' }),
      order(3, { order_type: 'BUY', quote: 'RLUSD', amount: '3', price: '0.25' }),
      order(4, { order_type: 'SELL', token_currency: tickerToCurrency('SOLOTOKEN') }),
    ];
    await mount();
    const [buy, sell, rlusd, hex] = await rows();
    expect(cell(buy!, 'PAY (XRP)').textContent).toBe(formatAmount('12.5'));
    expect(cell(buy!, 'GET (XRP)').textContent).toBe('—');
    expect(cell(sell!, 'PAY (XRP)').textContent).toBe('—');
    expect(cell(sell!, 'GET (XRP)').textContent).toBe(formatAmount('40'));
    expect(cell(rlusd!, 'PAY (XRP)').textContent).toBe(`${formatAmount('3')} RLUSD`);
    expect(cell(rlusd!, 'Price (XRP)').textContent).toBe(`${formatAmount('0.25')} RLUSD`);
    expect(cell(buy!, 'Price (XRP)').textContent).toBe(formatAmount('0.005'));
    expect(cell(buy!, 'Amount of Tokens').textContent).toBe(formatAmount('2500'));
    expect(cell(buy!, 'Token').textContent).toBe('ABCD');
    // A 40-hex currency code shows as its ticker.
    expect(cell(hex!, 'Token').textContent).toBe('SOLOTOKEN');
  });

  it('offers Cancel only on resting orders (open, partially filled)', async () => {
    const statuses: OrderStatus[] = ['open', 'partially_filled', 'filled', 'canceled'];
    orders = statuses.map((status, i) => order(i + 1, { status }));
    await mount();
    const shown = await rows();
    const cancellable = shown.map((r) => within(r).queryByRole('button', { name: 'Cancel' }) !== null);
    expect(cancellable).toEqual([true, true, false, false]);
    expect(shown.map((r) => cell(r, 'Status').textContent)).toEqual([
      'open',
      'partially filled',
      'filled',
      'canceled',
    ]);
  });

  it('pages 20 at a time: 21 orders read Page 1 of 2, Next shows the 21st', async () => {
    orders = Array.from({ length: 21 }, (_, i) => order(i + 1));
    await mount();
    expect(await rows()).toHaveLength(20);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    const last = await rows();
    expect(last).toHaveLength(1);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
  });

  it('says No orders yet. with a link to /swap when there are none', async () => {
    await mount();
    expect(await screen.findByText(/No orders yet\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Swap page/ }).getAttribute('href')).toBe('/swap');
  });

  it('says Failed to fetch orders. when the list fails', async () => {
    ordersAnswer = () => ({ status: 500, body: { message: 'Internal Server Error' } });
    await mount();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch orders.');
  });

  it('sends the filters to the server and Clear Filters drops them', async () => {
    orders = [order(1)];
    await mount();
    await rows();
    fireEvent.click(screen.getByRole('button', { name: /Filters/ }));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'open' } });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'SELL' } });
    await rows();
    expect(calls).toContain(`/api/orders/get-orders/${USER.id}?status=open&type=SELL`);
    fireEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('');
  });
});

describe('cancelling', () => {
  it('disables the button reading Cancelling… until the server answers, then shows canceled', async () => {
    orders = [order(1)];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/api/cancel-order/')) await gate;
      return real(input, init);
    });
    await mount();
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Cancel' }));
    const busy = await within(row!).findByRole<HTMLButtonElement>('button', { name: 'Cancelling…' });
    expect(busy.disabled).toBe(true);
    await act(async () => release());
    await within(row!).findByText('canceled');
    expect(within(row!).queryByRole('button')).toBeNull();
  });

  it('alerts Failed to cancel order. when the cancel fails', async () => {
    orders = [order(1)];
    cancelAnswer = () => ({ status: 400, body: { message: 'Only open orders can be cancelled.' } });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await mount();
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to cancel order.'));
    expect(cell(row!, 'Status').textContent).toBe('open');
    expect(within(row!).getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(false);
  });
});

describe('live updates', () => {
  it('applies orderUpdated frames, except to an order cancelled on this page', async () => {
    orders = [order(1), order(2)];
    await mount();
    let [first, second] = await rows();
    await vi.waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() => FakeSocket.last.open());
    // React Query notifies its observers on the next tick: each push waits for that render.
    const push = (orderId: number | string, status: OrderStatus) =>
      act(async () => {
        FakeSocket.last.receive({ event: 'orderUpdated', data: { orderId, status } });
        await sleep(0);
      });

    await push(2, 'partially_filled');
    expect(cell(second!, 'Status').textContent).toBe('partially filled');

    fireEvent.click(within(first!).getByRole('button', { name: 'Cancel' }));
    await within(first!).findByText('canceled');
    // A late frame from before the cancel must not bring the order back.
    await push('1', 'open');
    await push(1, 'partially_filled');
    [first, second] = await rows();
    expect(cell(first!, 'Status').textContent).toBe('canceled');
    expect(within(first!).queryByRole('button', { name: 'Cancel' })).toBeNull();

    await push(2, 'filled');
    expect(cell(second!, 'Status').textContent).toBe('filled');
  });

  it('checks statuses every 60 s, then fetches the list again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    orders = [order(1)];
    await mount();
    await rows();
    const lists = () => calls.filter((c) => c.startsWith('/api/orders/get-orders/')).length;
    const before = lists();
    expect(calls).not.toContain('/api/check-orders-status');
    orders = [order(1, { status: 'filled' })];
    await act(() => vi.advanceTimersByTimeAsync(ORDERS_STATUS_CHECK_MS));
    expect(calls).toContain('/api/check-orders-status');
    const [row] = await rows();
    await within(row!).findByText('filled');
    expect(lists()).toBe(before + 1);
    const lastList = calls.findLastIndex((c) => c.startsWith('/api/orders/get-orders/'));
    expect(calls.indexOf('/api/check-orders-status')).toBeLessThan(lastList);
  });
});

describe('status merge rule', () => {
  const list = [order(1), order(2, { status: 'partially_filled' })];

  it('applies a pushed status to the matching order (string or number id)', () => {
    const next = applyOrderUpdate(list, { orderId: '2', status: 'filled' }, new Set());
    expect(next.map((o) => o.status)).toEqual(['open', 'filled']);
    expect(list[1]!.status).toBe('partially_filled');
  });

  it('ignores frames for orders cancelled locally, and unknown or unchanged ones', () => {
    expect(applyOrderUpdate(list, { orderId: 1, status: 'open' }, new Set([1]))).toBe(list);
    expect(applyOrderUpdate(list, { orderId: 9, status: 'filled' }, new Set())).toBe(list);
    expect(applyOrderUpdate(list, { orderId: 1, status: 'open' }, new Set())).toBe(list);
  });

  it('shows locally cancelled orders as canceled whatever the list says', () => {
    expect(withLocalCancels(list, new Set([2])).map((o) => o.status)).toEqual(['open', 'canceled']);
    expect(withLocalCancels(list, new Set())).toBe(list);
  });
});
