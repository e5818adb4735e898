// The upload forms' fields: a label over a control, an optional hint the control is described
// by (`<id>-hint`), and aria-invalid while a refused submit names the field (useInvalidField's
// `bind` gives `invalid` and an `onChange` that clears the mark).
import type { ComponentProps, ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { GENRES } from '@/core/validation/song.rules.ts';
import { lyricsMessages } from '@/core/validation/lyrics.rules.ts';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { NativeSelect } from '@/web/components/ui/native-select.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';

/** The id of a field's hint, which its control names in aria-describedby. */
export const hintId = (id: string) => `${id}-hint`;

/** Moves focus to the field a check refused, so the listener lands where to fix it. */
export function focusField(id: string) {
  document.getElementById(id)?.focus();
}

/** A labelled control (the child, with `id`) and its hint under it. */
export function Field({
  id,
  label,
  icon: Icon,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  icon?: LucideIcon;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>
        {Icon && <Icon className="size-4 text-muted-foreground" aria-hidden="true" />}
        {label}
      </Label>
      {children}
      {hint && (
        <p id={hintId(id)} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

interface Bound {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A refused submit named this field. */
  invalid?: boolean;
  hint?: ReactNode;
}

type Control = 'input' | 'textarea' | 'select';
type FieldProps<E extends Control> = Bound & Omit<ComponentProps<E>, keyof Bound>;

/** A labelled control of kind `Control` holding text: its id, value, marks and description. */
function textField<E extends Control>(Control: (props: ComponentProps<E>) => ReactNode) {
  return function TextControlField({
    id,
    label,
    value,
    onChange,
    invalid,
    hint,
    ...rest
  }: FieldProps<E>) {
    const props = {
      ...rest,
      id,
      value,
      onChange: (e: { target: { value: string } }) => onChange(e.target.value),
      'aria-invalid': invalid || undefined,
      'aria-describedby': hint ? hintId(id) : undefined,
    } as ComponentProps<E>;
    return (
      <Field id={id} label={label} hint={hint}>
        <Control {...props} />
      </Field>
    );
  };
}

/** A labelled text box (Language, Duration…). */
export const TextField = /* @__PURE__ */ textField<'input'>(Input);
/** A labelled text area (Description). */
export const TextAreaField = /* @__PURE__ */ textField<'textarea'>(Textarea);
/** A labelled choice from a list (the children are its options). */
export const SelectField = /* @__PURE__ */ textField<'select'>(NativeSelect);

/** Title (named as the multipart field; the browser's autofill has nothing to offer). */
export function TitleField(props: Omit<FieldProps<'input'>, 'label'>) {
  return <TextField label="Title" name="title" autoComplete="off" {...props} />;
}

/** Genre: free text (≤ 100 chars, spec §5) suggesting the eight Browse genres. */
export function GenreField({ id, value, onChange, invalid }: Omit<Bound, 'label' | 'hint'>) {
  return (
    <Field id={id} label="Genre">
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        name="genre"
        list={`${id}-suggestions`}
        placeholder="e.g. Rock"
        autoComplete="off"
      />
      <datalist id={`${id}-suggestions`}>
        {GENRES.map((g) => (
          <option key={g} value={g} />
        ))}
      </datalist>
    </Field>
  );
}

/** Lyrics: plain text or LRC, checked by the same rules as the server's (lyrics-parser.ts). */
export function LyricsField(props: Omit<FieldProps<'textarea'>, 'label' | 'hint'>) {
  return (
    <TextAreaField
      label="Lyrics"
      name="lyrics"
      hint={lyricsMessages.help}
      rows={6}
      spellCheck={false}
      className="max-h-72 font-mono text-xs"
      {...props}
    />
  );
}
