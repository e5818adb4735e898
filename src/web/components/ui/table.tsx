import type { ComponentProps } from 'react';
import { cn } from './cn.ts';

/** A data table's column header: named for screen readers by `scope`, padded like its cells. */
export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cn('px-3 py-2 font-medium', className)} {...props} />;
}
