// A file picker as every upload form has it: the labelled input, what was chosen (name and
// size), and for pictures the chosen one (or the current one) beside the input.
import { useEffect, useState, type ReactNode } from 'react';
import { FileAudio, ImageIcon, type LucideIcon } from 'lucide-react';
import { Input } from '@/web/components/ui/input.tsx';
import { CoverArt } from '@/web/components/song/cover-art.tsx';
import { formatBytes } from '@/web/lib/format.ts';
import { Field, hintId } from './field.tsx';

const fileInputClass =
  'h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground';

export function FileSummary({ file }: { file: File }) {
  return (
    <p className="truncate text-sm text-muted-foreground" aria-live="polite">
      <span className="font-medium text-foreground">{file.name}</span> · {formatBytes(file.size)}
    </p>
  );
}

/** An object URL showing `file` while it is chosen; revoked when it changes or goes. */
export function useFilePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

export interface FileFieldProps {
  id: string;
  label: string;
  icon?: LucideIcon;
  accept: 'audio/*' | 'image/*';
  name?: string;
  /** The chosen file, summarised under the input (none: no summary). */
  file?: File | null;
  onChange: (file: File | null) => void;
  invalid?: boolean;
  hint?: ReactNode;
  /** Beside the input: a picture field's chosen or current picture (null: none yet). */
  preview?: ReactNode;
  /** Under the summary, e.g. an edit's FileRemoval. */
  children?: ReactNode;
}

export function FileField({
  id,
  label,
  icon,
  accept,
  name,
  file,
  onChange,
  invalid,
  hint,
  preview,
  children,
}: FileFieldProps) {
  const input = (
    <Input
      id={id}
      name={name}
      type="file"
      accept={accept}
      onChange={(e) => onChange(e.target.files?.[0] ?? null)}
      aria-invalid={invalid || undefined}
      aria-describedby={hint ? hintId(id) : undefined}
      className={fileInputClass}
    />
  );
  return (
    <Field id={id} label={label} icon={icon} hint={hint}>
      {preview === undefined ? (
        input
      ) : (
        <div className="flex items-center gap-4">
          {input}
          {preview}
        </div>
      )}
      {file && <FileSummary file={file} />}
      {children}
    </Field>
  );
}

/** The audio of a song, an episode: 'Audio file', any audio type (the server decodes it). */
export function AudioField(props: Omit<FileFieldProps, 'accept' | 'label' | 'icon'>) {
  return <FileField {...props} accept="audio/*" label="Audio file" icon={FileAudio} />;
}

/** A cover picture: the chosen one beside the input, else the current one (`current`). */
export function CoverField({
  previewAlt,
  current,
  ...props
}: Omit<FileFieldProps, 'accept' | 'icon' | 'preview' | 'file'> & {
  file: File | null;
  /** The chosen picture's text alternative, e.g. 'Chosen cover art'. */
  previewAlt: string;
  current?: string | null;
}) {
  const preview = useFilePreview(props.file);
  return (
    <FileField
      {...props}
      accept="image/*"
      icon={ImageIcon}
      preview={
        preview ? (
          <img
            src={preview}
            alt={previewAlt}
            className="size-14 shrink-0 rounded-md object-cover shadow"
          />
        ) : current ? (
          <CoverArt src={current} className="size-14 shrink-0 rounded-md object-cover shadow" />
        ) : null
      }
    />
  );
}
