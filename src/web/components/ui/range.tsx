import type { ComponentProps, CSSProperties } from 'react';
import { cn } from '@/web/components/ui/cn.ts';

/**
 * A native range input (keyboard, screen readers and touch for free) drawn as a thin track
 * whose filled part follows the value. Styles: `.range` in styles.css.
 */
export function Range({
  className,
  value,
  min = 0,
  max = 100,
  style,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'value' | 'min' | 'max'> & {
  value: number;
  min?: number;
  max?: number;
}) {
  const span = max - min;
  const fill = span > 0 ? ((value - min) / span) * 100 : 0;
  return (
    <input
      type="range"
      min={min}
      max={max}
      value={value}
      className={cn('range', className)}
      style={{ ...style, '--range-fill': `${Math.min(100, Math.max(0, fill))}%` } as CSSProperties}
      {...props}
    />
  );
}
