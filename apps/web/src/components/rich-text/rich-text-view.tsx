import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import './rich-text.css';

// What the editor writes (StarterKit, links, pictures); everything else is dropped before it is shown.
const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 's', 'u', 'code', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'img', 'hr'];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'src', 'alt', 'title', 'start'];

/** Rich text as HTML a page may show: only the editor's tags, no scripts, no handlers, no `javascript:` links. */
export function sanitizeRichText(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR });
}

/**
 * Shows stored rich text the way a learner sees it. The server sanitises what it stores; this
 * sanitises again because it also shows text still being edited.
 */
export function RichTextView({ html, className }: { html: string; className?: string }) {
  const safe = useMemo(() => sanitizeRichText(html), [html]);
  return <div className={['rich-text', className].filter(Boolean).join(' ')} dangerouslySetInnerHTML={{ __html: safe }} />;
}
