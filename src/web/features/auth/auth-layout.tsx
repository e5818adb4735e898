import { useEffect, type ReactNode } from 'react';
import { Headphones, Mic, Sparkles } from 'lucide-react';
import { BrandMark, BrandName } from '@/web/components/brand.tsx';
import { Card, CardContent } from '@/web/components/ui/card.tsx';

const highlights = [
  { icon: Headphones, text: 'Stream songs and podcasts from independent artists' },
  { icon: Sparkles, text: 'Personalized playlists and AI recommendations' },
  { icon: Mic, text: 'Upload your own music and get paid for every listen' },
];

/**
 * The frame of the pages a visitor sees before the app: sign in and up, forgot password, set
 * a new password, email verification. One heading and one card beside the brand panel.
 */
export function AuthLayout({
  title,
  subtitle,
  documentTitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  documentTitle: string;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${documentTitle} · Canto`;
  }, [documentTitle]);

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <aside
        aria-label="About Canto"
        className="relative hidden overflow-hidden bg-[radial-gradient(110%_120%_at_0%_0%,oklch(0.4_0.2_292)_0%,oklch(0.27_0.14_330)_50%,oklch(0.16_0.03_285)_100%)] p-12 lg:flex lg:flex-col lg:justify-between"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -bottom-24 size-96 rounded-full bg-fuchsia-500/20 blur-3xl"
        />
        <div className="flex items-center gap-2.5 text-white">
          <BrandMark className="size-9" />
          <BrandName className="text-2xl" />
        </div>
        <div className="relative max-w-md">
          <p className="text-4xl leading-tight font-extrabold tracking-tight text-white">
            Every song has a voice. Find yours.
          </p>
          <ul className="mt-8 grid gap-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-white/90">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/10">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white/70">Self-hosted music &amp; podcast streaming.</p>
      </aside>

      <main className="flex items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <div className="mb-8 text-center">
            <div className="mb-4 flex items-center justify-center gap-2.5 lg:hidden">
              <BrandMark className="size-10" />
            </div>
            <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
            <p className="mt-2 text-muted-foreground">{subtitle}</p>
          </div>
          <Card className="bg-card/80 shadow-xl backdrop-blur">
            <CardContent className="p-6">{children}</CardContent>
          </Card>
        </div>
      </main>
    </div>
  );
}
