// Spec §2 own profile, §4 profile edit, §5 rules: display name, bio in 4 rows and an avatar
// picker; Save Changes, or Cancel (the previous name and bio stay, the chosen image is
// dropped). The server checks all of it again.
import { useId, useState, type FormEvent } from 'react';
import { ImageIcon, LoaderCircle } from 'lucide-react';
import { toast } from 'sonner';
import { updateProfileBody, type ProfileDto } from '@/contracts/social.contract.ts';
import { profileLimits, profileMessages } from '@/core/validation/profile.rules.ts';
import { firstError } from '@/core/validation/auth.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { useFilePreview } from '@/web/components/upload/file-field.tsx';
import { UserAvatar } from './user-avatar.tsx';
import { useUpdateProfile } from './use-social.ts';
import { namesKind } from '@/web/components/upload/file-kind.ts';

/** The first problem with a chosen avatar file, as the server would put it; null if fine. */
function avatarProblem(file: File | null): string | null {
  if (!file) return null;
  // The browser's type is a guess from the name; the server decodes the image regardless.
  if (!namesKind(file, 'image')) return profileMessages.avatarNotImage;
  if (file.size > profileLimits.avatarMaxBytes) return profileMessages.avatarTooLarge;
  return null;
}

export function ProfileEditForm({ profile, onDone }: { profile: ProfileDto; onDone: () => void }) {
  const ids = useId();
  const [displayName, setDisplayName] = useState(profile.display_name ?? '');
  const [bio, setBio] = useState(profile.bio ?? '');
  const [avatar, setAvatar] = useState<File | null>(null);
  const preview = useFilePreview(avatar);
  const save = useUpdateProfile(profile.user_id);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fields = { display_name: displayName, bio };
    const problem = firstError(updateProfileBody, fields) ?? avatarProblem(avatar);
    if (problem) {
      toast.error('Validation Error', { id: 'social', description: problem });
      return;
    }
    save.mutate({ ...fields, avatar }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} aria-label="Edit Profile" className="flex w-full flex-col gap-4">
      <div className="flex items-center gap-4">
        {preview ? (
          <img
            src={preview}
            alt="Chosen avatar"
            className="size-20 shrink-0 rounded-full object-cover shadow"
          />
        ) : (
          <UserAvatar
            src={profile.avatar_url}
            name={profile.display_name}
            className="size-20 text-2xl"
          />
        )}
        <div className="min-w-0 flex-1 space-y-2">
          <Label htmlFor={`${ids}-avatar`}>
            <ImageIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            Avatar
          </Label>
          <Input
            id={`${ids}-avatar`}
            name="avatar"
            type="file"
            accept="image/*"
            disabled={save.isPending}
            onChange={(e) => setAvatar(e.target.files?.[0] ?? null)}
            className="h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground"
          />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${ids}-name`}>Display name</Label>
        <Input
          id={`${ids}-name`}
          name="display_name"
          value={displayName}
          autoComplete="nickname"
          disabled={save.isPending}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${ids}-bio`}>Bio</Label>
        <Textarea
          id={`${ids}-bio`}
          name="bio"
          rows={profileLimits.bioRows}
          value={bio}
          disabled={save.isPending}
          onChange={(e) => setBio(e.target.value)}
          className="resize-y"
        />
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="brand" disabled={save.isPending}>
          {save.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Save Changes
        </Button>
        {/* Unmounting the form drops the typed name and bio and the chosen image. */}
        <Button type="button" variant="outline" disabled={save.isPending} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
