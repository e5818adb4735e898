// Upload an episode (spec §2 Podcast upload, §5 episode rules): the show (one of the
// artist's own), title, description, audio file, episode number (whole ≥ 1, default 1).
// One multipart request with a progress bar, as songs; the server reads the duration from
// the file and sends it through the media pipeline. 'Episode uploaded successfully!'.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { podcastsApi } from '@/contracts/api/podcasts.api.ts';
import type { PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { focusField, SelectField, TextField } from '@/web/components/upload/field.tsx';
import { AudioField } from '@/web/components/upload/file-field.tsx';
import { UploadButtons, UploadProgressBar } from '@/web/components/upload/form-submit.tsx';
import { isUploadStopped, useUpload } from '@/web/components/upload/use-upload.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';
import { TitleDescriptionFields } from './form-parts.tsx';
import { firstEpisodeProblem, type EpisodeField } from './podcast-form-checks.ts';
import { podcastKeys } from './podcast-keys.ts';
import { showHref } from './show-card.tsx';

// As the song upload (spec §8): every failure of an upload has this title.
const FAILED = 'Upload Failed';

const PLACEHOLDERS = {
  title: "This episode's title",
  description: 'Show notes: what this episode covers',
};

/** The next number for a show: one after its episodes so far (1 for a new show). */
const nextNumber = (show: PodcastShowDto | undefined) => String((show?.episode_count ?? 0) + 1);

export function EpisodeForm({
  shows,
  initialShowId,
}: {
  shows: PodcastShowDto[];
  /** The show to preselect (just created, or chosen on its page). */
  initialShowId: string | null;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const upload = useUpload();
  const preselected =
    shows.find((s) => s.id === initialShowId) ?? (shows.length === 1 ? shows[0] : undefined);
  const [podcastId, setPodcastId] = useState(preselected?.id ?? '');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [audio, setAudio] = useState<File | null>(null);
  const [number, setNumber] = useState(nextNumber(preselected));
  const [numberTouched, setNumberTouched] = useState(false);
  const { setInvalid, bind, idOf } = useInvalidField<EpisodeField>();

  const choose = (id: string) => {
    setPodcastId(id);
    // Until the artist types a number, it follows the show's count.
    if (!numberTouched) setNumber(nextNumber(shows.find((s) => s.id === id)));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (upload.uploading) return;
    const problem = firstEpisodeProblem({
      podcastId,
      title,
      description,
      audio,
      episodeNumber: number,
    });
    if (problem || !audio) {
      const field = problem?.field ?? 'audio';
      setInvalid(field);
      toast.error(FAILED, {
        id: 'episode-upload',
        description: problem?.message ?? podcastMessages.audioRequired,
      });
      focusField(idOf(field));
      return;
    }
    setInvalid(null);

    const body = new FormData();
    // Fields first: the server reads them before it streams the file.
    body.append('title', title.trim());
    if (description.trim()) body.append('description', description.trim());
    body.append('episode_number', number.trim());
    body.append('audio', audio);

    try {
      await upload.send(podcastsApi.uploadEpisode, { params: { id: podcastId } }, body);
      toast.success(podcastMessages.episodeUploaded, { id: 'episode-upload', description: title });
      void client.invalidateQueries({ queryKey: podcastKeys.all });
      void client.invalidateQueries({ queryKey: podcastKeys.mine });
      navigate(showHref(podcastId));
    } catch (err) {
      if (isUploadStopped(err)) return;
      toast.error(FAILED, {
        id: 'episode-upload',
        description: errorMessage(err),
      });
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <fieldset disabled={upload.uploading} className="space-y-6">
        <SelectField label="Podcast" value={podcastId} {...bind('podcast', choose)}>
          <option value="">Select a podcast</option>
          {shows.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </SelectField>

        <TitleDescriptionFields
          title={[title, setTitle]}
          description={[description, setDescription]}
          bind={bind}
          placeholders={PLACEHOLDERS}
        />

        <AudioField
          file={audio}
          {...bind('audio', setAudio)}
          hint="MP3, WAV, FLAC, Ogg or M4A up to 100 MB. The length is read from the file."
        />

        <TextField
          label="Episode number"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={number}
          {...bind('number', (value: string) => {
            setNumberTouched(true);
            setNumber(value);
          })}
          // After bind: the multipart field's name is not the check's.
          name="episode_number"
          className="w-32"
        />
      </fieldset>

      {upload.percent !== null && <UploadProgressBar percent={upload.percent} />}

      <UploadButtons label="Upload Episode" uploading={upload.uploading} onCancel={upload.cancel} />
    </form>
  );
}
