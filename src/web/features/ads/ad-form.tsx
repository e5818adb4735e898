// Create or edit an ad: Title, Description, Image, Audio file, Duration, Target URL. The audio's length is the ad's duration; Duration counts only without audio. An edit
// may remove the image or the audio. The server checks everything again.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminAdDto } from '@/contracts/ads.contract.ts';
import { adLimits, adMessages } from '@/core/validation/ad.rules.ts';
import { SaveButton } from '@/web/components/upload/form-submit.tsx';
import {
  focusField,
  TextAreaField,
  TextField,
  TitleField,
} from '@/web/components/upload/field.tsx';
import { AudioField, FileField } from '@/web/components/upload/file-field.tsx';
import { FileRemoval } from '@/web/components/upload/file-removal.tsx';
import { errorMessage } from '@/web/lib/api-client.ts';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';
import { firstAdProblem, type AdField } from './ad-form-check.ts';
import { useSaveAd } from './use-ads.ts';

const TOAST = 'ad-form';

export function AdForm({ ad, onSaved }: { ad?: AdminAdDto; onSaved: (ad: AdminAdDto) => void }) {
  const save = useSaveAd();
  const [title, setTitle] = useState(ad?.title ?? '');
  const [description, setDescription] = useState(ad?.description ?? '');
  const [targetUrl, setTargetUrl] = useState(ad?.target_url ?? '');
  const [duration, setDuration] = useState(
    ad && !ad.audio_url ? String(Math.round(ad.duration)) : '',
  );
  const [image, setImage] = useState<File | null>(null);
  const [audio, setAudio] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [removeAudio, setRemoveAudio] = useState(false);
  const { setInvalid, bind, idOf } = useInvalidField<AdField>();
  const busy = save.isPending;
  // With audio (kept or new) the ad lasts as long as the audio.
  const hasAudio = audio !== null || (Boolean(ad?.audio_url) && !removeAudio);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = firstAdProblem({
      title,
      description,
      image,
      audio,
      duration: hasAudio ? '' : duration,
      targetUrl: targetUrl.trim(),
    });
    if (problem) {
      setInvalid(problem.field);
      toast.error('Error', { id: TOAST, description: problem.message });
      focusField(idOf(problem.field));
      return;
    }
    setInvalid(null);
    const form = new FormData();
    // Fields first: the server checks them before it reads the files.
    form.append('title', title.trim());
    if (description.trim() || ad) form.append('description', description.trim());
    if (targetUrl.trim() || ad) form.append('target_url', targetUrl.trim());
    if (!hasAudio && duration.trim()) form.append('duration', duration.trim());
    if (ad && removeImage && !image) form.append('remove_image', 'true');
    if (ad && removeAudio && !audio) form.append('remove_audio', 'true');
    if (image) form.append('image', image);
    if (audio) form.append('audio', audio);
    save.mutate(
      { id: ad?.id ?? null, form },
      {
        onSuccess: (saved) => {
          toast.success(ad ? adMessages.updated : adMessages.created, {
            id: TOAST,
            description: saved.title,
          });
          onSaved(saved);
        },
        onError: (err) =>
          toast.error('Error', {
            id: TOAST,
            description: errorMessage(err, adMessages.saveFailed),
          }),
      },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <fieldset disabled={busy} className="space-y-5">
        <TitleField value={title} {...bind('title', setTitle)} required />

        <TextAreaField
          label="Description"
          rows={3}
          value={description}
          {...bind('description', setDescription)}
        />

        <FileField label="Image" accept="image/*" file={image} {...bind('image', setImage)}>
          {ad?.image_url && !image && (
            <FileRemoval
              id={`${idOf('image')}-remove`}
              label="Remove image"
              checked={removeImage}
              onChange={setRemoveImage}
            />
          )}
        </FileField>

        <AudioField file={audio} {...bind('audio', setAudio)}>
          {ad?.audio_url && !audio && (
            <FileRemoval
              id={`${idOf('audio')}-remove`}
              label="Remove audio"
              checked={removeAudio}
              onChange={setRemoveAudio}
            />
          )}
        </AudioField>

        <div className="grid gap-5 sm:grid-cols-[10rem_1fr]">
          <TextField
            label="Duration"
            type="number"
            inputMode="numeric"
            min={adLimits.durationMinSeconds}
            max={adLimits.durationMaxSeconds}
            step={1}
            value={hasAudio ? '' : duration}
            placeholder={hasAudio ? 'From audio' : String(adLimits.defaultDurationSeconds)}
            disabled={hasAudio}
            hint="Seconds; with an audio file, its length."
            {...bind('duration', setDuration)}
          />
          <TextField
            label="Target URL"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={targetUrl}
            {...bind('target_url', setTargetUrl)}
            autoComplete="off"
          />
        </div>
      </fieldset>

      <SaveButton busy={busy} editing={!!ad} createLabel="Create Ad" />
    </form>
  );
}
