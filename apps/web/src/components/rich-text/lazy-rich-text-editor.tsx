import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { RichTextEditorProps } from './rich-text-editor';
import { useRichTextMessages } from './rich-text-messages';
import './rich-text.css';

// ProseMirror and tiptap weigh more than a page: they load the first time an editor shows.
const RichTextEditor = lazy(async () => ({ default: (await import('./rich-text-editor')).RichTextEditor }));

/** The rich text editor as a form control, loaded on first use; a placeholder holds its place meanwhile. */
export function LazyRichTextEditor(props: RichTextEditorProps) {
  const t = useRichTextMessages();
  return (
    <Suspense
      fallback={
        <div className="rich-text-editor__loading" aria-busy="true" aria-label={t('richText.loading')}>
          <Skeleton active paragraph={{ rows: 4 }} />
        </div>
      }
    >
      <RichTextEditor {...props} />
    </Suspense>
  );
}
