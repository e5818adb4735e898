// The podcast forms' checks before anything is sent (spec §5 podcast and episode rules, in
// the spec's order, with its messages). They mirror the server's; the server decides.
import { podcastFields } from '@/contracts/podcasts.contract.ts';
import {
  episodeNumber,
  episodeTitle,
  podcastDescription,
  podcastLimits,
  podcastMessages,
} from '@/core/validation/podcast.rules.ts';
import { songMessages } from '@/core/validation/song.rules.ts';
import type { UploadFile } from '@/web/components/upload/upload.ts';
import { namesKind, namesOtherKind } from '@/web/components/upload/file-kind.ts';

export interface Problem<Field extends string> {
  field: Field;
  message: string;
}

export type ShowField = 'title' | 'description' | 'language' | 'category' | 'ownerEmail' | 'cover';

export function firstShowProblem(form: {
  title: string;
  description: string;
  language: string;
  category: string;
  ownerEmail?: string;
  cover: UploadFile | null;
}): Problem<ShowField> | null {
  const parsed = podcastFields.safeParse({
    title: form.title,
    description: form.description,
    language: form.language.trim() || undefined,
    category: form.category,
    owner_email: form.ownerEmail,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path[0];
    const field =
      path === 'owner_email' ? 'ownerEmail' : ((path as ShowField | undefined) ?? 'title');
    return { field, message: issue?.message ?? podcastMessages.titleRequired };
  }
  const cover = form.cover;
  if (cover && namesOtherKind(cover, 'image'))
    return { field: 'cover', message: songMessages.coverInvalid };
  if (cover && cover.size > podcastLimits.coverMaxBytes)
    return { field: 'cover', message: songMessages.coverTooLarge };
  return null;
}

export type EpisodeField = 'podcast' | 'title' | 'description' | 'audio' | 'number';

export function firstEpisodeProblem(form: {
  podcastId: string;
  title: string;
  description: string;
  audio: UploadFile | null;
  episodeNumber: string;
}): Problem<EpisodeField> | null {
  if (!form.podcastId) return { field: 'podcast', message: podcastMessages.podcastRequired };
  const title = episodeTitle().safeParse(form.title);
  if (!title.success)
    return {
      field: 'title',
      message: title.error.issues[0]?.message ?? podcastMessages.episodeTitleRequired,
    };
  const description = podcastDescription().safeParse(form.description);
  if (!description.success)
    return {
      field: 'description',
      message: description.error.issues[0]?.message ?? podcastMessages.descriptionTooLong,
    };
  const audio = form.audio;
  if (!audio) return { field: 'audio', message: podcastMessages.audioRequired };
  // Spec §5: the type must start with audio (the picker offers audio/* only).
  if (!namesKind(audio, 'audio')) return { field: 'audio', message: podcastMessages.audioType };
  if (audio.size > podcastLimits.audioMaxBytes)
    return { field: 'audio', message: podcastMessages.audioTooLarge };
  if (!episodeNumber().safeParse(form.episodeNumber.trim()).success)
    return { field: 'number', message: podcastMessages.episodeNumber };
  return null;
}
