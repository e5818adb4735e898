// Create or edit an ad (issue 12 §4): Title, Description, Image, Audio file, Duration, Target
// URL. The audio's length is the ad's duration; Duration counts only without audio. An edit
// may remove the image or the audio. The server checks everything again.
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircle, Plus, Save } from 'lucide-react';
import type { AdminAdDto } from '@/contracts/ads.contract.ts';
import { adLimits, adMessages } from '@/core/validation/ad.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Checkbox } from '@/web/components/ui/checkbox.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { errorMessage } from '@/web/lib/api-client.ts';
import { formatBytes } from '@/web/lib/format.ts';
import { firstAdProblem, type AdField } from './ad-form-check.ts';
import { useSaveAd } from './use-ads.ts';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';

const TOAST = 'ad-form';
const fileInputClass =
  'h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground';

export function AdForm({ ad, onSaved }: { ad?: AdminAdDto; onSaved: (ad: AdminAdDto) => void }) {
  const ids = useId();
  const idOf = (f: AdField | 'remove_image' | 'remove_audio') => `${ids}-${f}`;
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
  const { setInvalid, invalidProps, edited } = useInvalidField<AdField>();
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
      document.getElementById(idOf(problem.field))?.focus();
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
        <div className="space-y-2">
          <Label htmlFor={idOf('title')}>Title</Label>
          <Input
            id={idOf('title')}
            value={title}
            onChange={(e) => {
              edited('title');
              setTitle(e.target.value);
            }}
            autoComplete="off"
            required
            {...invalidProps('title')}
          />
        </div>

        <div className="space-y-2">
          <Label htmlFor={idOf('description')}>Description</Label>
          <Textarea
            id={idOf('description')}
            rows={3}
            value={description}
            onChange={(e) => {
              edited('description');
              setDescription(e.target.value);
            }}
            {...invalidProps('description')}
          />
        </div>

        <div className="space-y-2">
          <Label htmlFor={idOf('image')}>Image</Label>
          <Input
            id={idOf('image')}
            type="file"
            accept="image/*"
            className={fileInputClass}
            onChange={(e) => {
              edited('image');
              setImage(e.target.files?.[0] ?? null);
            }}
            {...invalidProps('image')}
          />
          {image && <FileSummary file={image} />}
          {ad?.image_url && !image && (
            <RemoveChoice
              id={idOf('remove_image')}
              label="Remove image"
              checked={removeImage}
              onChange={setRemoveImage}
            />
          )}
        </div>

        <div className="space-y-2">
          <Label htmlFor={idOf('audio')}>Audio file</Label>
          <Input
            id={idOf('audio')}
            type="file"
            accept="audio/*"
            className={fileInputClass}
            onChange={(e) => {
              edited('audio');
              setAudio(e.target.files?.[0] ?? null);
            }}
            {...invalidProps('audio')}
          />
          {audio && <FileSummary file={audio} />}
          {ad?.audio_url && !audio && (
            <RemoveChoice
              id={idOf('remove_audio')}
              label="Remove audio"
              checked={removeAudio}
              onChange={setRemoveAudio}
            />
          )}
        </div>

        <div className="grid gap-5 sm:grid-cols-[10rem_1fr]">
          <div className="space-y-2">
            <Label htmlFor={idOf('duration')}>Duration</Label>
            <Input
              id={idOf('duration')}
              type="number"
              inputMode="numeric"
              min={adLimits.durationMinSeconds}
              max={adLimits.durationMaxSeconds}
              step={1}
              value={hasAudio ? '' : duration}
              placeholder={hasAudio ? 'From audio' : String(adLimits.defaultDurationSeconds)}
              disabled={hasAudio}
              aria-describedby={`${ids}-duration-hint`}
              onChange={(e) => {
                edited('duration');
                setDuration(e.target.value);
              }}
              {...invalidProps('duration')}
            />
            <p id={`${ids}-duration-hint`} className="text-xs text-muted-foreground">
              Seconds; with an audio file, its length.
            </p>
          </div>
          <div className="space-y-2">
            <Label htmlFor={idOf('target_url')}>Target URL</Label>
            <Input
              id={idOf('target_url')}
              type="url"
              inputMode="url"
              placeholder="https://"
              value={targetUrl}
              onChange={(e) => {
                edited('target_url');
                setTargetUrl(e.target.value);
              }}
              autoComplete="off"
              {...invalidProps('target_url')}
            />
          </div>
        </div>
      </fieldset>

      <Button type="submit" variant="brand" disabled={busy}>
        {busy ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : ad ? (
          <Save aria-hidden="true" />
        ) : (
          <Plus aria-hidden="true" />
        )}
        {busy ? 'Saving...' : ad ? 'Save Changes' : 'Create Ad'}
      </Button>
    </form>
  );
}

function FileSummary({ file }: { file: File }) {
  return (
    <p className="truncate text-sm text-muted-foreground" aria-live="polite">
      <span className="font-medium text-foreground">{file.name}</span> · {formatBytes(file.size)}
    </p>
  );
}

function RemoveChoice({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}
