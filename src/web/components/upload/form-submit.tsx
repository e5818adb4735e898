// How an upload form sends: a file upload's progress bar and its submit button that turns into
// 'Uploading...' with a Cancel beside it; a create-or-edit form's Create / Save Changes.
import { useId } from 'react';
import { LoaderCircle, Plus, Save, Upload } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';

export function UploadProgressBar({ percent }: { percent: number }) {
  const labelId = useId();
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

/** Submit (`label`, e.g. 'Upload Song') and, while uploading, Cancel. */
export function UploadButtons({
  label,
  uploading,
  onCancel,
}: {
  label: string;
  uploading: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <Button type="submit" variant="brand" size="lg" disabled={uploading}>
        {uploading ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : (
          <Upload aria-hidden="true" />
        )}
        {uploading ? 'Uploading...' : label}
      </Button>
      {uploading && (
        <Button variant="outline" size="lg" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </div>
  );
}

/** Create (`createLabel`, e.g. 'Create Show') or, editing, 'Save Changes'; 'Saving...' meanwhile. */
export function SaveButton({
  busy,
  editing,
  createLabel,
  size,
}: {
  busy: boolean;
  editing: boolean;
  createLabel: string;
  size?: 'lg';
}) {
  return (
    <Button type="submit" variant="brand" size={size} disabled={busy}>
      {busy ? (
        <LoaderCircle className="animate-spin" aria-hidden="true" />
      ) : editing ? (
        <Save aria-hidden="true" />
      ) : (
        <Plus aria-hidden="true" />
      )}
      {busy ? 'Saving...' : editing ? 'Save Changes' : createLabel}
    </Button>
  );
}
