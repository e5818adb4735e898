// Small pieces the two podcast forms share: the Title and Description fields, a file's name
// and size, the upload progress bar, and the classes of a file input.
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { formatBytes } from '@/web/lib/format.ts';

type TextField = 'title' | 'description';

/**
 * Title (required) and Description (4 rows) of a show or an episode. `invalid` marks the
 * field a refused submit named until it changes; `onEdit` is told which one changed.
 */
export function TitleDescriptionFields({
  idOf,
  title,
  description,
  onChange,
  invalid,
  placeholders,
}: {
  idOf: (field: TextField) => string;
  title: string;
  description: string;
  onChange: (field: TextField, value: string) => void;
  invalid: string | null;
  placeholders: Record<TextField, string>;
}) {
  const invalidProps = (f: TextField) =>
    invalid === f ? { 'aria-invalid': true as const } : undefined;
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={idOf('title')}>Title</Label>
        <Input
          id={idOf('title')}
          name="title"
          value={title}
          onChange={(e) => onChange('title', e.target.value)}
          placeholder={placeholders.title}
          autoComplete="off"
          required
          {...invalidProps('title')}
        />
      </div>

      <div className="space-y-2">
        <Label htmlFor={idOf('description')}>Description</Label>
        <Textarea
          id={idOf('description')}
          name="description"
          rows={4}
          value={description}
          onChange={(e) => onChange('description', e.target.value)}
          placeholder={placeholders.description}
          {...invalidProps('description')}
        />
      </div>
    </>
  );
}

export const fileInputClass =
  'h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground';

export function FileSummary({ file }: { file: File }) {
  return (
    <p className="truncate text-sm text-muted-foreground" aria-live="polite">
      <span className="font-medium text-foreground">{file.name}</span> · {formatBytes(file.size)}
    </p>
  );
}

export function UploadProgressBar({ percent, labelId }: { percent: number; labelId: string }) {
  return (
    <div className="space-y-2">
      <div className="flex justify-between text-sm">
        <span id={labelId}>Uploading...</span>
        <span className="text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="brand-gradient h-full rounded-full transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** Moves focus to the field a check refused, so the listener lands where to fix it. */
export function focusField(id: string) {
  document.getElementById(id)?.focus();
}
