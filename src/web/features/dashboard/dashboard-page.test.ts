import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ArtistAnalytics } from '@/contracts/artist-analytics.contract.ts';
import { DashboardView, type DashboardState } from './dashboard-page.tsx';
import { busiestDay, followedAgo, formatCents } from './dashboard-format.ts';

const render = (state: DashboardState) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(DashboardView, { state })));

const days = Array.from({ length: 30 }, (_, i) => ({
  date: new Date(Date.UTC(2026, 10, 1 + i)).toISOString().slice(0, 10),
  streams: i === 29 ? 40 : i % 3,
  unique_listeners: i === 29 ? 7 : i % 2,
}));

const analytics: ArtistAnalytics = {
  days,
  streams_30d: 1234,
  recent_streams: 56,
  songs_count: 3,
  episodes_count: 1,
  estimated_revenue_cents: 494,
  tier: { tier: 'medium', share_percent: 75, month: '2026-10', month_streams: 12000 },
  top_songs: [{ id: '00000000-0000-4000-8000-000000000001', title: 'Hit', plays: 900 }],
  top_episodes: [],
  new_followers: {
    count: 1,
    latest: [
      {
        user_id: '00000000-0000-4000-8000-000000000002',
        display_name: 'Fan',
        avatar_url: null,
        followed_at: '2026-11-29T10:00:00.000Z',
      },
    ],
  },
};

/** The first <dd> after the <dt> with this label. */
const figure = (html: string, label: string) =>
  new RegExp(`${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1];

describe('Artist dashboard', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');

  it('shows the four figures', () => {
    const html = render({ status: 'ready', analytics, now });
    expect(figure(html, 'Songs &amp; Episodes')).toBe('4');
    expect(figure(html, 'Recent Streams')).toBe('56');
    expect(figure(html, 'Estimated Revenue')).toBe('$4.94');
    expect(figure(html, 'Tier')).toBe('Medium');
    expect(html).toContain('75% artist share · 12,000 streams in October 2026');
  });

  it('gives each chart a table with one row per day', () => {
    const html = render({ status: 'ready', analytics, now });
    const tables = html.match(/<table[^>]*>.*?<\/table>/g) ?? [];
    expect(tables).toHaveLength(2);
    expect(tables[0]!.match(/<tr>/g)).toHaveLength(31);
    expect(tables[0]).toContain('<th scope="row">Monday, November 30</th><td>40</td>');
    expect(tables[1]).toContain('<th scope="row">Monday, November 30</th><td>7</td>');
  });

  it('lists top items and new followers, with empty lists said in words', () => {
    const html = render({ status: 'ready', analytics, now });
    expect(html).toContain('Hit');
    expect(html).toContain('900 plays');
    expect(html).toContain('No episodes played yet');
    expect(html).toContain('Fan');
    expect(html).toContain('yesterday');
  });

  it('says when no month has been calculated', () => {
    const html = render({ status: 'ready', analytics: { ...analytics, tier: null }, now });
    expect(html).toContain('No month calculated yet');
  });

  it('shows skeletons while loading, the failure with a retry, and an empty state', () => {
    expect(render({ status: 'loading' })).toContain('data-testid="dashboard-loading"');
    const failed = render({ status: 'failed', retrying: false, onRetry: () => {} });
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Failed to load analytics');
    const empty = render({
      status: 'ready',
      analytics: {
        ...analytics,
        days: days.map((d) => ({ ...d, streams: 0, unique_listeners: 0 })),
        streams_30d: 0,
        recent_streams: 0,
        songs_count: 0,
        episodes_count: 0,
      },
      now,
    });
    expect(empty).toContain('No streams yet');
    expect(empty).toContain('href="/upload"');
  });

  it('formats', () => {
    expect(formatCents(4)).toBe('$0.04');
    expect(busiestDay(days, (d) => d.streams)?.streams).toBe(40);
    expect(busiestDay([{ date: 'x', n: 0 }], (d) => d.n)).toBeNull();
    expect(followedAgo('2026-11-28T12:00:00Z', now)).toBe('2 days ago');
  });
});
