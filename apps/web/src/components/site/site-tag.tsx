import type { ReactNode } from 'react';

export type TagTone = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** A small label: a status, a type, a mark such as "required" or "overdue". */
export function SiteTag({ tone = 'default', children }: { tone?: TagTone; children: ReactNode }) {
  return <span className={`site-tag${tone === 'default' ? '' : ` site-tag--${tone}`}`}>{children}</span>;
}
