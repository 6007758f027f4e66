import {
  BoldOutlined,
  CodeOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { PICTURE_EXTENSIONS, type LocalStorage } from '@cloud-classroom/shared/storage';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { App, Button, Flex, Input, Popover, Spin } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { apiUrl, http } from '../../lib/http-client';
import { useRichTextMessages } from './rich-text-messages';
import './rich-text.css';

export type RichTextEditorProps = {
  /** HTML; '' for nothing. */
  value?: string;
  onChange?: (html: string) => void;
  /** The form item's id, given to the editable area so its label points at it. */
  id?: string;
  placeholder?: string;
  'aria-label'?: string;
  /**
   * Stores a picture and answers where it is shown from (already an address for `<img src>`); by
   * default the pictures of local storage. A feature whose pictures live with its rows (questions) passes its own.
   */
  uploadImage?: (file: File) => Promise<UploadedImage>;
};

export type UploadedImage = { src: string; alt: string };

/** The default: the pictures of local storage, named after the file. */
async function uploadToLocalStorage(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file, file.name);
  const stored = await http.post<LocalStorage>(PICTURES_PATH, form);
  return { src: apiUrl(stored.url), alt: stored.name };
}

const PICTURES_PATH = 'api/localStorage/pictures';
const PICTURE_ACCEPT = PICTURE_EXTENSIONS.map((extension) => `.${extension}`).join(',');
const LINK_PATTERN = /^(https?:\/\/|mailto:)\S+$/i;

/** What the form holds: '' for an empty document, not ProseMirror's `<p></p>`. */
const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML());

function ToolButton({ label, active, disabled, onClick, children }: { label: string; active?: boolean; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Button
      type={active ? 'primary' : 'text'}
      ghost={active}
      size="small"
      aria-label={label}
      title={label}
      aria-pressed={active}
      disabled={disabled}
      onClick={onClick}
      // The editor keeps its selection: a click on the toolbar must not take the focus first.
      onMouseDown={(event) => event.preventDefault()}
    >
      {children}
    </Button>
  );
}

function LinkButton({ editor, active }: { editor: Editor; active: boolean }) {
  const t = useRichTextMessages();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const invalid = address.trim() !== '' && !LINK_PATTERN.test(address.trim());
  const apply = () => {
    const href = address.trim();
    if (href === '' || invalid) return;
    editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setAddress((editor.getAttributes('link').href as string | undefined) ?? 'https://');
      }}
      trigger="click"
      content={
        <Flex vertical gap={4} style={{ width: 260, maxWidth: '70vw' }}>
          <Input
            autoFocus
            aria-label={t('richText.linkAddress')}
            value={address}
            status={invalid ? 'error' : undefined}
            onChange={(event) => setAddress(event.target.value)}
            onPressEnter={apply}
          />
          {invalid && <span className="ant-form-item-explain-error">{t('richText.linkInvalid')}</span>}
          <Button type="primary" size="small" disabled={address.trim() === '' || invalid} onClick={apply}>
            {t('common.confirm')}
          </Button>
        </Flex>
      }
    >
      <Button type={active ? 'primary' : 'text'} ghost={active} size="small" aria-label={t('richText.link')} title={t('richText.link')} aria-pressed={active}>
        <LinkOutlined />
      </Button>
    </Popover>
  );
}

function Toolbar({ editor, uploadImage }: { editor: Editor; uploadImage: (file: File) => Promise<UploadedImage> }) {
  const t = useRichTextMessages();
  const { message } = App.useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      link: current.isActive('link'),
      code: current.isActive('code'),
      codeBlock: current.isActive('codeBlock'),
      quote: current.isActive('blockquote'),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });

  const insertPicture = async (file: File) => {
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!(PICTURE_EXTENSIONS as readonly string[]).includes(extension)) {
      void message.error(t('richText.imageWrongType'));
      return;
    }
    setUploading(true);
    try {
      // A refusal (too large, not a picture) is notified by the client.
      const image = await uploadImage(file);
      editor.chain().focus().setImage(image).run();
    } catch {
      return;
    } finally {
      setUploading(false);
    }
  };

  const chain = () => editor.chain().focus();
  return (
    <div className="rich-text-editor__toolbar" role="toolbar" aria-label={t('richText.toolbar')}>
      <ToolButton label={t('richText.bold')} active={state.bold} onClick={() => chain().toggleBold().run()}>
        <BoldOutlined />
      </ToolButton>
      <ToolButton label={t('richText.italic')} active={state.italic} onClick={() => chain().toggleItalic().run()}>
        <ItalicOutlined />
      </ToolButton>
      <ToolButton label={t('richText.heading', { level: 2 })} active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        H2
      </ToolButton>
      <ToolButton label={t('richText.heading', { level: 3 })} active={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
        H3
      </ToolButton>
      <ToolButton label={t('richText.bulletList')} active={state.bulletList} onClick={() => chain().toggleBulletList().run()}>
        <UnorderedListOutlined />
      </ToolButton>
      <ToolButton label={t('richText.orderedList')} active={state.orderedList} onClick={() => chain().toggleOrderedList().run()}>
        <OrderedListOutlined />
      </ToolButton>
      <LinkButton editor={editor} active={state.link} />
      {state.link && (
        <ToolButton label={t('richText.unlink')} onClick={() => chain().extendMarkRange('link').unsetLink().run()}>
          <DisconnectOutlined />
        </ToolButton>
      )}
      <ToolButton label={t('richText.image')} disabled={uploading} onClick={() => fileInput.current?.click()}>
        {uploading ? <Spin size="small" aria-label={t('richText.imageUploading')} /> : <PictureOutlined />}
      </ToolButton>
      <input
        ref={fileInput}
        type="file"
        accept={PICTURE_ACCEPT}
        style={{ display: 'none' }}
        data-testid="rich-text-picture"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file !== undefined) void insertPicture(file);
        }}
      />
      <ToolButton label={t('richText.code')} active={state.code} onClick={() => chain().toggleCode().run()}>
        <CodeOutlined />
      </ToolButton>
      <ToolButton label={t('richText.codeBlock')} active={state.codeBlock} onClick={() => chain().toggleCodeBlock().run()}>
        {'{ }'}
      </ToolButton>
      <ToolButton label={t('richText.quote')} active={state.quote} onClick={() => chain().toggleBlockquote().run()}>
        ❝
      </ToolButton>
      <ToolButton label={t('richText.undo')} disabled={!state.canUndo} onClick={() => chain().undo().run()}>
        <UndoOutlined />
      </ToolButton>
      <ToolButton label={t('richText.redo')} disabled={!state.canRedo} onClick={() => chain().redo().run()}>
        <RedoOutlined />
      </ToolButton>
    </div>
  );
}

/**
 * The back office's rich text editor (tiptap), an antd form control whose value is an HTML
 * string. Heavy (ProseMirror): pages load it through `LazyRichTextEditor`.
 */
export function RichTextEditor({ value = '', onChange, id, placeholder, 'aria-label': ariaLabel, uploadImage = uploadToLocalStorage }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        // An empty paragraph kept after every heading or list would be stored with the text.
        trailingNode: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', protocols: ['http', 'https', 'mailto'] },
      }),
      Image,
    ],
    content: value,
    editorProps: {
      attributes: {
        ...(id === undefined ? {} : { id }),
        role: 'textbox',
        'aria-multiline': 'true',
        ...(ariaLabel === undefined ? {} : { 'aria-label': ariaLabel }),
        ...(placeholder === undefined ? {} : { 'aria-placeholder': placeholder }),
      },
    },
    onUpdate: ({ editor: current }) => onChange?.(htmlOf(current)),
    shouldRerenderOnTransaction: false,
  });

  // A value set from outside (the lesson loaded, the form reset) replaces the document; the
  // editor's own changes come back equal and leave it, and the cursor, alone.
  useEffect(() => {
    if (editor.isDestroyed || value === htmlOf(editor)) return;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <div className="rich-text-editor">
      <Toolbar editor={editor} uploadImage={uploadImage} />
      <EditorContent editor={editor} className="rich-text-editor__content rich-text" />
    </div>
  );
}
