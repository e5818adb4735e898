// The playlist form's check (spec §5: title trimmed 1–100, description ≤ 500, public by
// default). The contract's own schema decides, so the browser says exactly what the server
// would.
import { createPlaylistBody, type CreatePlaylistBody } from '@/contracts/playlists.contract.ts';

export interface PlaylistFormValues {
  title: string;
  description: string;
  isPublic: boolean;
}

type Field = 'title' | 'description';
export type PlaylistFormErrors = Partial<Record<Field, string>>;

export const fieldId = (ids: string, field: Field) => `${ids}-${field}`;

/** The body to send (trimmed; a blank description left out), or each field's first problem. */
export function checkPlaylistForm(
  values: PlaylistFormValues,
): { body: CreatePlaylistBody; errors?: undefined } | { errors: PlaylistFormErrors } {
  const parsed = createPlaylistBody.safeParse({
    title: values.title,
    description: values.description,
    is_public: values.isPublic,
  });
  if (parsed.success) {
    const { description, ...rest } = parsed.data;
    return { body: description ? { ...rest, description } : rest };
  }
  const errors: PlaylistFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'title' || field === 'description') && !errors[field])
      errors[field] = issue.message;
  }
  return { errors };
}

/** Focus the first field with a problem, so the listener lands where the fix goes. */
export function focusFirstProblem(ids: string, errors: PlaylistFormErrors) {
  const field = (['title', 'description'] as const).find((f) => errors[f]);
  if (field) document.getElementById(fieldId(ids, field))?.focus();
}
