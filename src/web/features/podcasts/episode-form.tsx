// Upload an episode (spec §2 Podcast upload, §5 episode rules): the show (one of the
// artist's own), title, description, audio file, episode number (whole ≥ 1, default 1).
// One multipart request with a progress bar, as songs; the server reads the duration from
// the file and sends it through the media pipeline. 'Episode uploaded successfully!'.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FileAudio, LoaderCircle, Upload } from 'lucide-react';
import type { EpisodeDto, PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { uploadForm } from '@/web/components/upload/upload.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import {
  TitleDescriptionFields,
  FileSummary,
  fileInputClass,
  focusField,
  UploadProgressBar,
} from './form-parts.tsx';
import { firstEpisodeProblem, type EpisodeField } from './podcast-form-checks.ts';
import { podcastKeys } from './podcast-keys.ts';
import { showHref } from './show-card.tsx';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';

// As the song upload (spec §8): every failure of an upload has this title.
const FAILED = 'Upload Failed';

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
  const ids = useId();
  const fieldId = (f: EpisodeField) => `${ids}-${f}`;
  const abortRef = useRef<AbortController | null>(null);
  const preselected =
    shows.find((s) => s.id === initialShowId) ?? (shows.length === 1 ? shows[0] : undefined);
  const [podcastId, setPodcastId] = useState(preselected?.id ?? '');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [audio, setAudio] = useState<File | null>(null);
  const [number, setNumber] = useState(nextNumber(preselected));
  const [numberTouched, setNumberTouched] = useState(false);
  const { invalid, setInvalid, invalidProps, edited } = useInvalidField<EpisodeField>();
  const [percent, setPercent] = useState<number | null>(null);
  const uploading = percent !== null;

  // Leaving the screen stops a running upload; the server keeps nothing of it.
  useEffect(() => () => abortRef.current?.abort(), []);

  const choose = (id: string) => {
    setPodcastId(id);
    // Until the artist types a number, it follows the show's count.
    if (!numberTouched) setNumber(nextNumber(shows.find((s) => s.id === id)));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (uploading) return;
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
      focusField(fieldId(field));
      return;
    }
    setInvalid(null);

    const body = new FormData();
    // Fields first: the server reads them before it streams the file.
    body.append('title', title.trim());
    if (description.trim()) body.append('description', description.trim());
    body.append('episode_number', number.trim());
    body.append('audio', audio);

    const abort = new AbortController();
    abortRef.current = abort;
    setPercent(0);
    try {
      await uploadForm<EpisodeDto>(`/podcasts/${podcastId}/episodes`, body, {
        signal: abort.signal,
        onProgress: ({ loaded, total }) => setPercent(Math.round((loaded / total) * 100)),
      });
      toast.success(podcastMessages.episodeUploaded, { id: 'episode-upload', description: title });
      void client.invalidateQueries({ queryKey: podcastKeys.all });
      void client.invalidateQueries({ queryKey: podcastKeys.mine });
      navigate(showHref(podcastId));
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      toast.error(FAILED, {
        id: 'episode-upload',
        description: errorMessage(err, toUserMessage(err)),
      });
    } finally {
      if (abortRef.current === abort) abortRef.current = null;
      // Unmounted after success or a cancel: nothing to reset.
      if (!abort.signal.aborted) setPercent(null);
    }
  };

  const cancel = () => {
    abortRef.current?.abort();
    setPercent(null);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <fieldset disabled={uploading} className="space-y-6">
        <div className="space-y-2">
          <Label htmlFor={fieldId('podcast')}>Podcast</Label>
          <NativeSelect
            id={fieldId('podcast')}
            name="podcast"
            value={podcastId}
            onChange={(e) => {
              edited('podcast');
              choose(e.target.value);
            }}
            {...invalidProps('podcast')}
          >
            <option value="">Select a podcast</option>
            {shows.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </NativeSelect>
        </div>

        <TitleDescriptionFields
          idOf={fieldId}
          title={title}
          description={description}
          onChange={(field, value) => {
            edited(field);
            (field === 'title' ? setTitle : setDescription)(value);
          }}
          invalid={invalid}
          placeholders={{
            title: "This episode's title",
            description: 'Show notes: what this episode covers',
          }}
        />

        <div className="space-y-2">
          <Label htmlFor={fieldId('audio')}>
            <FileAudio className="size-4 text-muted-foreground" aria-hidden="true" />
            Audio file
          </Label>
          <Input
            id={fieldId('audio')}
            name="audio"
            type="file"
            accept="audio/*"
            onChange={(e) => {
              edited('audio');
              setAudio(e.target.files?.[0] ?? null);
            }}
            className={fileInputClass}
            aria-describedby={`${ids}-audio-hint`}
            {...invalidProps('audio')}
          />
          <p id={`${ids}-audio-hint`} className="text-xs text-muted-foreground">
            MP3, WAV, FLAC, Ogg or M4A up to 100 MB. The length is read from the file.
          </p>
          {audio && <FileSummary file={audio} />}
        </div>

        <div className="space-y-2">
          <Label htmlFor={fieldId('number')}>Episode number</Label>
          <Input
            id={fieldId('number')}
            name="episode_number"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={number}
            onChange={(e) => {
              edited('number');
              setNumberTouched(true);
              setNumber(e.target.value);
            }}
            className="w-32"
            {...invalidProps('number')}
          />
        </div>
      </fieldset>

      {uploading && <UploadProgressBar percent={percent} labelId={`${ids}-progress`} />}

      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="brand" size="lg" disabled={uploading}>
          {uploading ? (
            <LoaderCircle className="animate-spin" aria-hidden="true" />
          ) : (
            <Upload aria-hidden="true" />
          )}
          {uploading ? 'Uploading...' : 'Upload Episode'}
        </Button>
        {uploading && (
          <Button variant="outline" size="lg" onClick={cancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
