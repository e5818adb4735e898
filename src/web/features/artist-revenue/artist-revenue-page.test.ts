import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RevenueMonth } from '@/contracts/revenue.contract.ts';
import type { WithdrawalDto } from '@/contracts/withdrawals.contract.ts';
import { ArtistRevenueView, type ArtistRevenueState } from './artist-revenue-page.tsx';
import { yearsOf } from './revenue-format.ts';
import { statementUrl } from './use-artist-revenue.ts';

const render = (state: ArtistRevenueState) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ArtistRevenueView, state)));

const months: RevenueMonth[] = [
  {
    month: '2026-11',
    premium_revenue: 12345,
    ad_revenue: 250,
    tip_revenue: 950,
    total_revenue: 13545,
    total_streams: 4321,
  },
  {
    month: '2025-12',
    premium_revenue: 100,
    ad_revenue: 0,
    tip_revenue: 0,
    total_revenue: 100,
    total_streams: 12,
  },
];

const withdrawal = (id: string, status: WithdrawalDto['status']): WithdrawalDto => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  amount_cents: 2500,
  status,
  payment_method: 'paypal',
  payment_details_masked: 'PayPal j•••@example.com',
  requested_at: '2026-11-20T10:00:00.000Z',
  processed_at: status === 'pending' ? null : '2026-11-21T10:00:00.000Z',
  notes: status === 'rejected' ? 'Details did not match' : null,
});

const ready: ArtistRevenueState = {
  months: { status: 'ready', data: months },
  balance: {
    status: 'ready',
    data: { balance: 13645, available: 11145, pending: 2500, payout: null },
  },
  withdrawals: {
    status: 'ready',
    data: [
      withdrawal('1', 'pending'),
      withdrawal('2', 'processing'),
      withdrawal('3', 'completed'),
      withdrawal('4', 'rejected'),
    ],
  },
};

describe('Artist revenue', () => {
  it('shows the months in the order given (newest first) with each amount in dollars', () => {
    const html = render(ready);
    expect(html.indexOf('November 2026')).toBeLessThan(html.indexOf('December 2025'));
    for (const text of ['$123.45', '$2.50', '$9.50', '$135.45', '4,321'])
      expect(html).toContain(`>${text}<`);
  });

  it('links a CSV statement per month and per year', () => {
    const html = render(ready);
    expect(html).toContain('href="/api/artist/revenue/statement?month=2026-11"');
    expect(html).toContain('href="/api/artist/revenue/statement?month=2025-12"');
    expect(html).toContain('href="/api/artist/revenue/statement?year=2026"');
    expect(html).toContain('href="/api/artist/revenue/statement?year=2025"');
    expect(yearsOf(months)).toEqual(['2026', '2025']);
    expect(statementUrl({ year: '2024' })).toMatch(/\/revenue\/statement\?year=2024$/);
  });

  it('shows the balance, the available amount and pending', () => {
    const html = render(ready);
    expect(html).toMatch(/Balance<\/dt><dd[^>]*>\$136\.45</);
    expect(html).toMatch(/Available<\/dt><dd[^>]*>\$111\.45</);
    expect(html).toMatch(/Pending<\/dt><dd[^>]*>\$25\.00</);
  });

  it('shows each withdrawal with its status badge, masked details and notes', () => {
    const html = render(ready);
    for (const s of ['Pending', 'Processing', 'Completed', 'Rejected'])
      expect(html).toMatch(new RegExp(`<span[^>]*rounded-full[^>]*>${s}</span>`));
    expect(html).toContain('PayPal j•••@example.com');
    expect(html).toContain('Details did not match');
  });

  it("says 'Failed to load revenue data' with a retry, and empty states in words", () => {
    const failed = render({
      ...ready,
      months: { status: 'failed', retrying: false, onRetry: () => {} },
      withdrawals: { status: 'failed', retrying: false, onRetry: () => {} },
    });
    expect(failed).toContain('Failed to load revenue data');
    expect(failed).toContain('Failed to load withdrawal requests');
    const empty = render({
      ...ready,
      months: { status: 'ready', data: [] },
      withdrawals: { status: 'ready', data: [] },
    });
    expect(empty).toContain('No revenue yet');
    expect(empty).toContain('No withdrawal requests yet');
    expect(empty).not.toContain('statement?year=');
    const loading = render({
      months: { status: 'loading' },
      balance: { status: 'loading' },
      withdrawals: { status: 'loading' },
    });
    expect(loading).toContain('Loading your revenue...');
  });
});
