import type { ReactNode } from 'react';
import { formatBadge } from '../../lib/badge';

/** A count badge: capped at 999 (shown 999+), the full total in the tooltip. */
export function CountBadge({ count, testId }: { count: number; testId?: string }) {
  const { text, title } = formatBadge(count);
  return (
    <span className={`badge ${count > 0 ? 'badge-active' : 'badge-muted'}`} title={title} data-testid={testId}>
      {text}
    </span>
  );
}

export function Pill({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'blue' | 'green' | 'orange' | 'red' }) {
  return <span className={`pill pill-${tone}`}>{children}</span>;
}
