import type { ComponentProps } from 'react';
import { cn } from '@/web/components/ui/cn.ts';

export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />;
}
