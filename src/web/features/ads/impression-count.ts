// How the admin inventory puts an ad's impressions into words (paid per impression, spec:
// 5 dollars per 1,000): "1,234 impressions · 56 in the last 30 days". English, like every
// other text of the app, so its grouping is en-US's unless a test asks for another.
import { adLimits } from '@/core/validation/ad.rules.ts';

export function impressionCountText(total: number, recent: number, locale = 'en-US'): string {
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const noun = total === 1 ? 'impression' : 'impressions';
  return `${count.format(total)} ${noun} · ${count.format(recent)} in the last ${adLimits.recentImpressionDays} days`;
}
