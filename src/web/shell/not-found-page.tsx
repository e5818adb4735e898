import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { House } from 'lucide-react';
import { Button } from '@/web/components/ui/button.tsx';
import { BrandMark } from '@/web/components/brand.tsx';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = 'Page not found · Canto';
  }, []);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <BrandMark className="size-12" />
      <div>
        <p className="brand-gradient bg-clip-text text-7xl font-black tracking-tighter text-transparent md:text-8xl">
          404
        </p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight md:text-3xl">Oops! Page not found</h1>
        <p className="mt-2 max-w-md text-muted-foreground">
          Nothing lives at{' '}
          <code className="rounded bg-muted px-1.5 py-0.5 text-sm">{pathname}</code>.
        </p>
      </div>
      <Button asChild size="lg">
        <Link to="/">
          <House aria-hidden="true" />
          Return to Home
        </Link>
      </Button>
    </main>
  );
}
