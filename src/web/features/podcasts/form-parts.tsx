// The Title and Description fields both podcast forms (a show, an episode) start with.
import { TextAreaField, TitleField } from '@/web/components/upload/field.tsx';

type Text = 'title' | 'description';

/**
 * Title (required) and Description (4 rows) of a show or an episode, bound to the form's
 * useInvalidField (a refused submit marks the field it names until it changes).
 */
export function TitleDescriptionFields({
  title: [title, setTitle],
  description: [description, setDescription],
  bind,
  placeholders,
}: {
  /** Each field's value and setter, as useState gives them. */
  title: readonly [string, (value: string) => void];
  description: readonly [string, (value: string) => void];
  bind: (
    field: Text,
    set: (value: string) => void,
  ) => { id: string; name: string; invalid: boolean; onChange: (value: string) => void };
  placeholders: Record<Text, string>;
}) {
  return (
    <>
      <TitleField
        value={title}
        {...bind('title', setTitle)}
        placeholder={placeholders.title}
        required
      />
      <TextAreaField
        label="Description"
        rows={4}
        value={description}
        {...bind('description', setDescription)}
        placeholder={placeholders.description}
      />
    </>
  );
}
