import { useId } from 'react';
import { cn } from '@/web/components/ui/cn.ts';

export function BrandMark({ className }: { className?: string }) {
  // Unique per instance: a gradient id shared with a hidden copy would not paint.
  const gradient = useId();
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#a78bfa" />
          <stop offset="1" stopColor="#ec4899" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradient})`} />
      <path d="M26 44.5a6 6 0 1 1-3-5.2V19l20-4v22.5a6 6 0 1 1-3-5.2V22.4l-14 2.8z" fill="#fff" />
    </svg>
  );
}

export function BrandName({ className }: { className?: string }) {
  return <span className={cn('text-xl font-bold tracking-tight', className)}>Canto</span>;
}
