// The fields of a playlist (spec §5: title, description, public), shared by the Create
// Playlist and Edit dialogs; playlist-form-check.ts checks them.
import { playlistLimits } from '@/core/validation/playlist.rules.ts';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Switch } from '@/web/components/ui/switch.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import {
  fieldId,
  type PlaylistFormErrors,
  type PlaylistFormValues,
} from './playlist-form-check.ts';

export function PlaylistFormFields({
  ids,
  values,
  errors,
  onChange,
}: {
  /** From useId(): the fields' ids start with it. */
  ids: string;
  values: PlaylistFormValues;
  errors: PlaylistFormErrors;
  onChange: (values: PlaylistFormValues) => void;
}) {
  const titleId = fieldId(ids, 'title');
  const descriptionId = fieldId(ids, 'description');
  const publicId = `${ids}-public`;
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={titleId}>Title</Label>
        <Input
          id={titleId}
          name="title"
          value={values.title}
          onChange={(e) => onChange({ ...values, title: e.target.value })}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${titleId}-error` : undefined}
          placeholder="My playlist"
          autoComplete="off"
          required
        />
        {errors.title && (
          <p id={`${titleId}-error`} className="text-sm text-red-400">
            {errors.title}
          </p>
        )}
      </div>
      <div className="space-y-2">
        <Label htmlFor={descriptionId}>Description</Label>
        <Textarea
          id={descriptionId}
          name="description"
          value={values.description}
          onChange={(e) => onChange({ ...values, description: e.target.value })}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${descriptionId}-hint${errors.description ? ` ${descriptionId}-error` : ''}`}
          placeholder="What is it for? (optional)"
          rows={3}
        />
        <p id={`${descriptionId}-hint`} className="text-xs text-muted-foreground">
          {`Optional, up to ${playlistLimits.descriptionMax} characters (${values.description.trim().length} used).`}
        </p>
        {errors.description && (
          <p id={`${descriptionId}-error`} className="text-sm text-red-400">
            {errors.description}
          </p>
        )}
      </div>
      <div className="flex items-start justify-between gap-4 rounded-lg border px-3 py-3">
        <div className="space-y-1">
          <Label htmlFor={publicId}>Public</Label>
          <p id={`${publicId}-hint`} className="text-xs text-muted-foreground">
            {values.isPublic ? 'Anyone signed in can open and play it.' : 'Only you can see it.'}
          </p>
        </div>
        <Switch
          id={publicId}
          checked={values.isPublic}
          onCheckedChange={(isPublic) => onChange({ ...values, isPublic })}
          aria-describedby={`${publicId}-hint`}
        />
      </div>
    </>
  );
}
