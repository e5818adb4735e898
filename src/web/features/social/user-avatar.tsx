// A user's picture (spec §2: avatar, else the initial of their name). Decorative: the name
// is always beside it.
import { Avatar } from 'radix-ui';
import { cn } from '@/web/components/ui/cn.ts';
import { initial } from '@/web/lib/format.ts';
import { profileName } from '@/core/validation/profile.rules.ts';

export function UserAvatar({
  src,
  name,
  className,
}: {
  src: string | null | undefined;
  name: string | null | undefined;
  className?: string;
}) {
  return (
    <Avatar.Root
      aria-hidden="true"
      className={cn(
        'relative flex size-10 shrink-0 overflow-hidden rounded-full bg-accent select-none',
        className,
      )}
    >
      {src && <Avatar.Image src={src} alt="" className="size-full object-cover" />}
      <Avatar.Fallback className="brand-gradient flex size-full items-center justify-center font-semibold text-white">
        {initial(profileName(name))}
      </Avatar.Fallback>
    </Avatar.Root>
  );
}
