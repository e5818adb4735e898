// Create or edit a show (spec §2 Podcast upload, §5): title (required, ≤ 200), description,
// cover image, language, category, explicit. Create → 'Podcast created! Now you can upload
// episodes.'; edit → 'Podcast updated successfully!'. The server checks everything again.
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { PodcastShowDto } from '@/contracts/podcasts.contract.ts';
import {
  PODCAST_CATEGORIES,
  podcastMessages,
  type PodcastCategory,
} from '@/core/validation/podcast.rules.ts';
import { SaveButton } from '@/web/components/upload/form-submit.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Switch } from '@/web/components/ui/switch.tsx';
import { focusField, SelectField, TextField } from '@/web/components/upload/field.tsx';
import { CoverField } from '@/web/components/upload/file-field.tsx';
import { errorMessage } from '@/web/lib/api-client.ts';
import { TitleDescriptionFields } from './form-parts.tsx';
import { firstShowProblem, type ShowField } from './podcast-form-checks.ts';
import { useSavePodcast } from './use-podcasts.ts';
import { useInvalidField } from '@/web/lib/use-invalid-field.ts';

const DEFAULT_LANGUAGE = 'en';
const DEFAULT_CATEGORY: PodcastCategory = 'Music';
const PLACEHOLDERS = { title: "Your show's name", description: 'What is the show about?' };

export function ShowForm({
  show,
  onSaved,
}: {
  /** The show to edit; none to create one. */
  show?: PodcastShowDto;
  onSaved?: (show: PodcastShowDto) => void;
}) {
  const ids = useId();
  const save = useSavePodcast();
  const [title, setTitle] = useState(show?.title ?? '');
  const [description, setDescription] = useState(show?.description ?? '');
  const [language, setLanguage] = useState(show?.language ?? DEFAULT_LANGUAGE);
  const [category, setCategory] = useState<string>(show?.category ?? DEFAULT_CATEGORY);
  const [explicit, setExplicit] = useState(show?.explicit ?? false);
  const [ownerEmail, setOwnerEmail] = useState(show?.owner_email ?? '');
  const [cover, setCover] = useState<File | null>(null);
  const { setInvalid, bind, idOf } = useInvalidField<ShowField>();
  const busy = save.isPending;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = firstShowProblem({ title, description, language, category, ownerEmail, cover });
    if (problem) {
      setInvalid(problem.field);
      toast.error('Error', { id: 'podcast-form', description: problem.message });
      focusField(idOf(problem.field));
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
    // An edit may clear the owner e-mail; a new show just leaves it out.
    if (ownerEmail.trim() || show) form.append('owner_email', ownerEmail.trim());
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
            description: errorMessage(err),
          }),
      },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <fieldset disabled={busy} className="space-y-6">
        <TitleDescriptionFields
          title={[title, setTitle]}
          description={[description, setDescription]}
          bind={bind}
          placeholders={PLACEHOLDERS}
        />

        <CoverField
          label="Cover image"
          file={cover}
          {...bind('cover', setCover)}
          previewAlt="Chosen cover image"
          current={show?.cover_art_url}
        />

        <div className="grid gap-6 sm:grid-cols-2">
          <TextField
            label="Language"
            value={language}
            {...bind('language', setLanguage)}
            placeholder="en"
            autoComplete="off"
            hint="A language tag such as en or pt-BR."
          />
          <SelectField label="Category" value={category} {...bind('category', setCategory)}>
            {PODCAST_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
        </div>

        <TextField
          label="Owner email"
          type="email"
          value={ownerEmail}
          {...bind('ownerEmail', setOwnerEmail)}
          placeholder="you@example.com"
          autoComplete="email"
          hint="Published in the show's RSS feed as its owner; Apple Podcasts asks for one."
        />

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

      <SaveButton busy={busy} editing={!!show} createLabel="Create Show" size="lg" />
    </form>
  );
}
