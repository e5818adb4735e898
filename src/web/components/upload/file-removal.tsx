// An edit's choice to remove the file an item has (an ad's image or audio), offered under its
// FileField while no new file is chosen. Its own module: only the forms that edit need it.
import { Checkbox } from '@/web/components/ui/checkbox.tsx';
import { Label } from '@/web/components/ui/label.tsx';

export function FileRemoval({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}
