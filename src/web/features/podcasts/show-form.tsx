// Create or edit a show (spec §2 Podcast upload, §5): title (required, ≤ 200), description,
// cover image, language, category, explicit. Create → 'Podcast created! Now you can upload
// episodes.'; edit → 'Podcast updated successfully!'. The server checks everything again.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ImageIcon, LoaderCircle, Plus, Save } from 'lucide-react';
import type { PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';
import {
  PODCAST_CATEGORIES,
  podcastMessages,
  type PodcastCategory,
} from '@/core/validation/podcast.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { Switch } from '@/web/components/ui/switch.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { errorMessage } from '@/web/lib/api-client.ts';
import { TitleDescriptionFields, FileSummary, fileInputClass, focusField } from './form-parts.tsx';
import { firstShowProblem, type ShowField } from './podcast-form-checks.ts';
import { useSavePodcast } from './use-podcasts.ts';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';

const DEFAULT_LANGUAGE = 'en';
const DEFAULT_CATEGORY: PodcastCategory = 'Music';

export function ShowForm({
  show,
  onSaved,
}: {
  /** The show to edit; none to create one. */
  show?: PodcastShowDto;
  onSaved?: (show: PodcastShowDto) => void;
}) {
  const ids = useId();
  const fieldId = (f: ShowField) => `${ids}-${f}`;
  const save = useSavePodcast();
  const [title, setTitle] = useState(show?.title ?? '');
  const [description, setDescription] = useState(show?.description ?? '');
  const [language, setLanguage] = useState(show?.language ?? DEFAULT_LANGUAGE);
  const [category, setCategory] = useState<string>(show?.category ?? DEFAULT_CATEGORY);
  const [explicit, setExplicit] = useState(show?.explicit ?? false);
  const [cover, setCover] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const { invalid, setInvalid, invalidProps, edited } = useInvalidField<ShowField>();
  const busy = save.isPending;

  useEffect(() => {
    if (!cover) return setPreview(null);
    const url = URL.createObjectURL(cover);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [cover]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = firstShowProblem({ title, description, language, category, cover });
    if (problem) {
      setInvalid(problem.field);
      toast.error('Error', { id: 'podcast-form', description: problem.message });
      focusField(fieldId(problem.field));
      return;
    }
    setInvalid(null);
    const form = new FormData();
    // Fields first: the server reads them before the cover.
    form.append('title', title.trim());
    // An edit may clear the description; a new show just leaves it out.
    if (description.trim() || show) form.append('description', description.trim());
    form.append('language', language.trim() || DEFAULT_LANGUAGE);
    form.append('category', category);
    form.append('explicit', String(explicit));
    if (cover) form.append('cover', cover);
    save.mutate(
      { id: show?.id ?? null, form },
      {
        onSuccess: (saved) => {
          toast.success(show ? podcastMessages.updated : podcastMessages.created, {
            id: 'podcast-form',
            description: saved.title,
          });
          setCover(null);
          onSaved?.(saved);
        },
        onError: (err) =>
          toast.error('Error', {
            id: 'podcast-form',
            description: errorMessage(err, toUserMessage(err)),
          }),
      },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <fieldset disabled={busy} className="space-y-6">
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
            title: "Your show's name",
            description: 'What is the show about?',
          }}
        />

        <div className="space-y-2">
          <Label htmlFor={fieldId('cover')}>
            <ImageIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            Cover image
          </Label>
          <div className="flex items-center gap-4">
            <Input
              id={fieldId('cover')}
              name="cover"
              type="file"
              accept="image/*"
              onChange={(e) => {
                edited('cover');
                setCover(e.target.files?.[0] ?? null);
              }}
              className={fileInputClass}
              {...invalidProps('cover')}
            />
            {preview ? (
              <img
                src={preview}
                alt="Chosen cover image"
                className="size-14 shrink-0 rounded-md object-cover shadow"
              />
            ) : (
              show?.cover_art_url && (
                <CoverArt
                  src={show.cover_art_url}
                  className="size-14 shrink-0 rounded-md object-cover shadow"
                />
              )
            )}
          </div>
          {cover && <FileSummary file={cover} />}
        </div>

        <div className="grid gap-6 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={fieldId('language')}>Language</Label>
            <Input
              id={fieldId('language')}
              name="language"
              value={language}
              onChange={(e) => {
                edited('language');
                setLanguage(e.target.value);
              }}
              placeholder="en"
              autoComplete="off"
              aria-describedby={`${ids}-language-hint`}
              {...invalidProps('language')}
            />
            <p id={`${ids}-language-hint`} className="text-xs text-muted-foreground">
              A language tag such as en or pt-BR.
            </p>
          </div>
          <div className="space-y-2">
            <Label htmlFor={fieldId('category')}>Category</Label>
            <NativeSelect
              id={fieldId('category')}
              name="category"
              value={category}
              onChange={(e) => {
                edited('category');
                setCategory(e.target.value);
              }}
              {...invalidProps('category')}
            >
              {PODCAST_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>

        <div className="flex items-center gap-3">
          <Switch
            id={`${ids}-explicit`}
            checked={explicit}
            onCheckedChange={setExplicit}
            aria-describedby={`${ids}-explicit-hint`}
          />
          <Label htmlFor={`${ids}-explicit`}>Explicit</Label>
          <span id={`${ids}-explicit-hint`} className="text-xs text-muted-foreground">
            Podcast apps mark the show as explicit content.
          </span>
        </div>
      </fieldset>

      <Button type="submit" variant="brand" size="lg" disabled={busy}>
        {busy ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : show ? (
          <Save aria-hidden="true" />
        ) : (
          <Plus aria-hidden="true" />
        )}
        {busy ? 'Saving...' : show ? 'Save Changes' : 'Create Show'}
      </Button>
    </form>
  );
}
