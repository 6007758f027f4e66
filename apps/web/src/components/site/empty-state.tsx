import type { ReactNode } from 'react';

/** What a list or section says when it has nothing yet, and what to do about it (`action`). */
export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="site-state">
      <svg className="site-state__icon" viewBox="0 0 48 48" aria-hidden="true">
        <path d="M6 30 12 12h24l6 18v8a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2z" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <path d="M6 30h11l2 4h10l2-4h11" fill="none" stroke="currentColor" strokeWidth="2.5" />
      </svg>
      <p className="site-state__title">{title}</p>
      {text !== undefined && <p className="site-state__text">{text}</p>}
      {action}
    </div>
  );
}
