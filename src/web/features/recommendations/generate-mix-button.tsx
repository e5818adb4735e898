// 'Generate AI Playlist': the listener's AI mix made (or made again) by the server, then
// opened. Signed out, the button sends them to sign in, as the app's other gated actions do.
import type { ComponentProps } from 'react';
import { useNavigate } from 'react-router';
import { Loader2, Sparkles } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { useGenerateAiMix } from '@/web/features/library/index.ts';
import { useSession } from '@/web/session/use-session.ts';

export function GenerateMixButton({
  className,
  variant,
  size = 'lg',
}: Pick<ComponentProps<typeof Button>, 'className' | 'variant' | 'size'>) {
  const navigate = useNavigate();
  const signedIn = useSession().status === 'signed-in';
  const generate = useGenerateAiMix({
    onGenerated: (mix) => void navigate(`/playlist/${mix.playlist_id}`),
  });
  const pending = generate.isPending;
  return (
    <Button
      size={size}
      variant={variant}
      className={className}
      disabled={pending}
      aria-busy={pending}
      onClick={() => (signedIn ? generate.mutate() : void navigate('/auth'))}
    >
      {pending ? (
        <Loader2 className="animate-spin" aria-hidden="true" />
      ) : (
        <Sparkles aria-hidden="true" />
      )}
      {pending ? 'Generating…' : 'Generate AI Playlist'}
    </Button>
  );
}
