// One daily series as a recharts area chart, drawn in the theme's colours (CSS variables, so
// it reads on the dark theme), with the same numbers as a table for screen readers: the
// chart itself is hidden from them and takes no focus.
import {
  Area,
  AreaChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ArtistAnalyticsDay } from '@/contracts/artist-analytics.contract.ts';
import { busiestDay, countOf, dayFull, dayShort, formatCount } from './dashboard-format.ts';

export type DailyChartProps = {
  id: string;
  title: string;
  days: readonly ArtistAnalyticsDay[];
  value: 'streams' | 'unique_listeners';
  /** Unit words for the summary and table: ['stream', 'streams']. */
  unit: [string, string];
  color: string;
};

export function DailyChart({ id, title, days, value, unit, color }: DailyChartProps) {
  const total = days.reduce((n, d) => n + d[value], 0);
  const top = busiestDay(days, (d) => d[value]);
  const summary =
    value === 'streams'
      ? `${countOf(total, unit[0], unit[1])} over ${days.length} days`
      : `${formatCount(Math.max(0, ...days.map((d) => d[value])))} at most on one day`;
  const data = days.map((d) => ({ date: d.date, label: dayShort(d.date), value: d[value] }));
  return (
    <figure aria-labelledby={`${id}-title`} className="space-y-3" data-testid={`${id}-chart`}>
      <figcaption>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">
          {summary}
          {top && ` · busiest ${dayShort(top.date)} (${formatCount(top[value])})`}
        </p>
      </figcaption>
      <div aria-hidden="true" className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} accessibilityLayer={false} margin={{ left: -16, right: 8 }}>
            <defs>
              <linearGradient id={`${id}-fill`} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor={color} stopOpacity={0.45} />
                <stop offset="100%" stopColor={color} stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="label"
              stroke="var(--muted-foreground)"
              tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
              tickLine={false}
              interval="preserveStartEnd"
              minTickGap={24}
            />
            <YAxis
              allowDecimals={false}
              stroke="var(--muted-foreground)"
              tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
              tickLine={false}
              axisLine={false}
            />
            <Tooltip
              cursor={{ stroke: 'var(--ring)' }}
              contentStyle={{
                background: 'var(--popover)',
                border: '1px solid var(--border)',
                borderRadius: 8,
                color: 'var(--popover-foreground)',
              }}
              labelStyle={{ color: 'var(--popover-foreground)' }}
              itemStyle={{ color: 'var(--popover-foreground)' }}
              formatter={(v) => [formatCount(Number(v)), title]}
            />
            <Area
              type="monotone"
              dataKey="value"
              stroke={color}
              strokeWidth={2}
              fill={`url(#${id}-fill)`}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only" aria-labelledby={`${id}-title`}>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{unit[1].charAt(0).toUpperCase() + unit[1].slice(1)}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{dayFull(d.date)}</th>
              <td>{formatCount(d[value])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
