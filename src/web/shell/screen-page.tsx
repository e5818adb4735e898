// Screens whose issue has not landed yet: the shell, the title and a neutral empty body.
import { useScreen } from '@/web/shell/route-guards.tsx';
import { LayoutGrid } from 'lucide-react';

export default function ScreenPage() {
  const screen = useScreen();
  const Icon = screen?.icon ?? LayoutGrid;
  return (
    <section
      aria-label={screen?.title}
      className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-2xl border border-dashed px-6 py-16 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold">{screen?.title}</h2>
      {screen?.description && <p className="text-muted-foreground">{screen.description}</p>}
    </section>
  );
}
