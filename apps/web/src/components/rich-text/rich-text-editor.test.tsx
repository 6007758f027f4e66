import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../list-page/list-page-test-kit';
import { stubRoutes } from '../../test/page-test-kit';
import { RichTextEditor } from './rich-text-editor';
import { RichTextView, sanitizeRichText } from './rich-text-view';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

describe('RichTextEditor', () => {
  beforeEach(() => {
    stubBrowser();
    // jsdom lays nothing out and its ranges cannot measure themselves; ProseMirror measures the
    // selection to scroll it into view after a command.
    Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
    Range.prototype.getBoundingClientRect = () => new DOMRect();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    delete (Range.prototype as Partial<Range>).getClientRects;
    delete (Range.prototype as Partial<Range>).getBoundingClientRect;
  });

  it('shows its value and hands every change back as HTML', async () => {
    const onChange = vi.fn<(html: string) => void>();
    renderWithProviders(<RichTextEditor value="<p>Hello</p>" onChange={onChange} aria-label="Text" />);
    expect(screen.getByRole('textbox', { name: 'Text' }).textContent).toBe('Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Heading 2' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<h2>Hello</h2>'));
    expect(screen.getByRole('button', { name: 'Heading 2' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello</p>'));
  });

  it('takes a new value from outside without reporting it as a change', async () => {
    const onChange = vi.fn<(html: string) => void>();
    const { rerender } = render(<RichTextEditor value="<p>One</p>" onChange={onChange} aria-label="Text" />);
    rerender(<RichTextEditor value="<p>Two</p>" onChange={onChange} aria-label="Text" />);
    expect(screen.getByRole('textbox', { name: 'Text' }).textContent).toBe('Two');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('uploads a picture through the pictures endpoint and inserts it', async () => {
    const api = stubRoutes({
      'POST api/localStorage/pictures': () =>
        jsonResponse(201, { id: 1, realName: 'a1.png', name: 'diagram', suffix: 'png', path: '', type: '图片', size: '1 KB', url: '/file/202501/a1.png', createBy: 'admin', updateBy: 'admin', createTime: '', updateTime: '' }),
    });
    const onChange = vi.fn<(html: string) => void>();
    renderWithProviders(<RichTextEditor value="<p>See</p>" onChange={onChange} aria-label="Text" />);
    fireEvent.change(screen.getByTestId('rich-text-picture'), { target: { files: [new File(['png'], 'diagram.png', { type: 'image/png' })] } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('<img src="/file/202501/a1.png" alt="diagram">')));
    expect(api.callsTo('POST api/localStorage/pictures')[0]?.body).toBeInstanceOf(FormData);

    fireEvent.change(screen.getByTestId('rich-text-picture'), { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('Choose a PNG, JPG, GIF or WebP picture')).toBeTruthy();
    expect(api.callsTo('POST api/localStorage/pictures')).toHaveLength(1);
  });
  it('uploads a picture through the hook it is given instead, inserting what the hook answers', async () => {
    const api = stubRoutes({});
    const uploadImage = vi.fn(async (file: File) => ({ src: `/api/questions/images/7?name=${file.name}`, alt: 'chart' }));
    const onChange = vi.fn<(html: string) => void>();
    renderWithProviders(<RichTextEditor value="<p>See</p>" onChange={onChange} aria-label="Text" uploadImage={uploadImage} />);
    fireEvent.change(screen.getByTestId('rich-text-picture'), { target: { files: [new File(['png'], 'c.png', { type: 'image/png' })] } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('<img src="/api/questions/images/7?name=c.png" alt="chart">')));
    expect(uploadImage).toHaveBeenCalledTimes(1);
    expect(api.calls).toHaveLength(0);
  });
});

describe('RichTextView', () => {
  afterEach(cleanup);

  it('keeps the editor’s markup and drops scripts, handlers and javascript: links', () => {
    expect(sanitizeRichText('<h2>T</h2><p><strong>b</strong> <a href="https://x.test">x</a></p>')).toBe('<h2>T</h2><p><strong>b</strong> <a href="https://x.test">x</a></p>');
    expect(sanitizeRichText('<p onclick="steal()">a</p><script>steal()</script><img src="x" onerror="steal()"><a href="javascript:steal()">b</a>')).toBe(
      '<p>a</p><img src="x"><a>b</a>',
    );
    render(<RichTextView html={'<p>Hi <em>there</em></p><iframe src="https://evil.test"></iframe>'} />);
    expect(screen.getByText('there').tagName).toBe('EM');
    expect(document.querySelector('iframe')).toBeNull();
  });
});
