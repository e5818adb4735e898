import { GENRES } from '@/core/validation/song.rules.ts';
import { Input } from '@/web/components/ui/input.tsx';

/** Free-text genre (≤ 100 chars, spec §5) suggesting the eight Browse genres. */
export function GenreInput({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
}) {
  return (
    <>
      <Input
        id={id}
        name="genre"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        list={`${id}-suggestions`}
        placeholder="e.g. Rock"
        autoComplete="off"
      />
      <datalist id={`${id}-suggestions`}>
        {GENRES.map((g) => (
          <option key={g} value={g} />
        ))}
      </datalist>
    </>
  );
}
