import { z } from 'zod';

export const artistRequest = z.object({
  user_id: z.uuid(),
  display_name: z.string().nullable(),
  requested_at: z.string(),
});
export type ArtistRequest = z.infer<typeof artistRequest>;

export const artistRequestList = z.array(artistRequest);
export const userIdParams = z.object({ userId: z.uuid() });
