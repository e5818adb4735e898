import { z } from 'zod';

/*
 * The artist dashboard's figures (spec §2 Artist dashboard, §3 artist analytics rows, §4 tier,
 * §9), all computed by SQL. Days are UTC; a stream is one play record of the artist's songs
 * or of the episodes of the artist's shows.
 */

const day = z.object({
  date: z.string().describe('YYYY-MM-DD (UTC)'),
  streams: z.number().int(),
  unique_listeners: z.number().int().describe('distinct listeners that day'),
});

export const artistAnalytics = z.object({
  days: z
    .array(day)
    .describe('the last 30 days including today (UTC), oldest first, days without plays included'),
  streams_30d: z.number().int().describe('streams over the 30 days'),
  recent_streams: z.number().int().describe('streams over the last 7 days including today'),
  songs_count: z.number().int(),
  episodes_count: z.number().int(),
  estimated_revenue_cents: z
    .number()
    .int()
    .describe('the 30 days of streams at $0.004 each, in cents rounded half up'),
  tier: z
    .object({
      tier: z.enum(['small', 'medium', 'large']),
      share_percent: z.number().int(),
      month: z.string().describe('YYYY-MM: the latest calculated month'),
      month_streams: z.number().int(),
    })
    .nullable()
    .describe('from the latest calculated month; null before any month was calculated'),
  top_songs: z
    .array(z.object({ id: z.uuid(), title: z.string(), plays: z.number().int() }))
    .describe('top 5 by plays, all time'),
  top_episodes: z
    .array(
      z.object({
        id: z.uuid(),
        title: z.string(),
        podcast_title: z.string(),
        plays: z.number().int(),
      }),
    )
    .describe('top 5 by plays, all time'),
  new_followers: z.object({
    count: z.number().int().describe('follows of the artist over the 30 days'),
    latest: z.array(
      z.object({
        user_id: z.uuid(),
        display_name: z.string().nullable(),
        avatar_url: z.string().nullable(),
        followed_at: z.string().describe('ISO timestamp'),
      }),
    ),
  }),
});
export type ArtistAnalytics = z.infer<typeof artistAnalytics>;
export type ArtistAnalyticsDay = z.infer<typeof day>;
