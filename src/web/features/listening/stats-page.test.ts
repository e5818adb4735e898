import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UserStats } from '@/contracts/listening.contract.ts';
import { EMPTY_STATS } from './use-listening.ts';
import { StatsView } from './stats-page.tsx';

const render = (stats: UserStats, loading = false) =>
  renderToStaticMarkup(createElement(StatsView, { stats, loading }));

const stats: UserStats = {
  totalStreams: 1234,
  totalHours: 12.5,
  completionRate: 87.5,
  completedStreams: 1080,
  topArtists: [
    { name: 'Aria', streams: 700, hours: 8.25 },
    { name: 'Bo', streams: 1, hours: 0.05 },
  ],
  topGenres: [
    { genre: 'Jazz', count: 800 },
    { genre: 'Rock', count: 200 },
  ],
  topSongs: Array.from({ length: 6 }, (_, i) => ({ title: `Song ${i + 1}`, plays: 10 - i })),
  activityData: ['04', '05', '06', '07', '08', '09', '10'].map((d, i) => ({
    date: `2025-03-${d}`,
    streams: [0, 2, 8, 0, 4, 0, 1][i]!,
  })),
};

/** The <dd> that follows the <dt> with this label. */
const figure = (html: string, label: string) =>
  new RegExp(`${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1];

describe('Your Listening Stats', () => {
  it('shows the four figures as label and value pairs', () => {
    const html = render(stats);
    expect(figure(html, 'Total Streams')).toBe('1,234');
    expect(figure(html, 'Completion Rate')).toBe('87.5%');
    expect(figure(html, 'Completed Plays')).toBe('1,080');
    expect(figure(html, 'Hours Listened')).toBe('12.5 hours');
    expect(figure(render({ ...stats, totalHours: 0.75 }), 'Hours Listened')).toBe('45 min');
  });

  it('ranks artists with streams and hours, and genres with bars relative to the top one', () => {
    const html = render(stats);
    expect(html).toContain('Your Top Artists');
    expect(html).toMatch(/Aria<\/p><p[^>]*>700 streams · 8.25 hours/);
    // Under an hour reads as minutes: 0.05 h is 3 min.
    expect(html).toMatch(/Bo<\/p><p[^>]*>1 stream · 3 min/);
    expect(html).toContain('Top Genres');
    const bars = [...html.matchAll(/data-testid="genre-bar"[^>]*style="width:([\d.]+)%"/g)];
    expect(bars.map((m) => Number(m[1]))).toEqual([100, 25]);
  });

  it('lists the first 5 most played songs with their plays', () => {
    const html = render(stats);
    expect(html).toContain('Most Played Songs');
    expect(html).toContain('Song 5');
    expect(html).not.toContain('Song 6');
    expect(html).toContain('10 plays');
  });

  it('draws the week relative to the busiest day, each day in words for screen readers', () => {
    const html = render(stats);
    expect(html).toContain('Last 7 Days Activity');
    const heights = [...html.matchAll(/data-testid="activity-bar"[^>]*style="height:([\d.]+)%"/g)];
    expect(heights.map((m) => Number(m[1]))).toEqual([0, 25, 100, 0, 50, 0, 12.5]);
    expect(html).toContain('Thursday, March 6: 8 streams');
    expect(html).toContain('Tuesday, March 4: 0 streams');
  });

  it('no data: zeros, empty sections and no activity chart, and no error text', () => {
    const html = render(EMPTY_STATS);
    expect(figure(html, 'Total Streams')).toBe('0');
    expect(figure(html, 'Completion Rate')).toBe('0%');
    expect(html).toContain('No artists yet');
    expect(html).not.toContain('Last 7 Days Activity');
    expect(html).not.toMatch(/fail|error/i);
    const quietWeek = render({
      ...EMPTY_STATS,
      activityData: [{ date: '2025-03-10', streams: 0 }],
    });
    expect(quietWeek).not.toContain('Last 7 Days Activity');
  });

  it('shows skeletons, not figures, while loading', () => {
    const html = render(EMPTY_STATS, true);
    expect(html).toContain('data-testid="stats-loading"');
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('Total Streams');
  });
});
