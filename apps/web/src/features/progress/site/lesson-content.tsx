import '../../../components/rich-text/rich-text.css';

/**
 * A lesson's text, or the notes under a video or document. The server sanitises every rich text
 * before storing it (`sanitizeRichText`), so the learner's page shows it as it comes, without
 * carrying a sanitiser of its own.
 */
export function LessonContent({ html, className }: { html: string; className?: string }) {
  return <div className={['rich-text', 'lesson-content', className].filter(Boolean).join(' ')} dangerouslySetInnerHTML={{ __html: html }} />;
}
