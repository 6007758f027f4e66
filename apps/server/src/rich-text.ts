import type SanitizeHtml from 'sanitize-html';

// Rich text is HTML people write in the back office (a course's description, a lesson's text)
// and learners' browsers render: this is the one allow-list it passes through before it is
// stored. Anything not named here is dropped; script and style elements go with their content.

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const FORMATTING = ['p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'span', 'div'];
const LISTS = ['ul', 'ol', 'li'];
const TABLES = ['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];
const BLOCKS = ['blockquote', 'pre', 'code', 'figure', 'figcaption'];

const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [...HEADINGS, ...FORMATTING, ...LISTS, ...TABLES, ...BLOCKS, 'a', 'img'],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    colgroup: ['span'],
  },
  // Editors mark a code block's language this way; no other class survives.
  allowedClasses: { code: ['language-*'], pre: ['language-*'] },
  // A link may be a web address, an e-mail or a path on this site; an image a web address or a
  // path on this site (`/file/…`, `api/media/…`): never data:, javascript: or another scheme.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  // `//host/x` looks like a path but loads from another site.
  allowProtocolRelative: false,
  // A link opens here or in a new tab (never in a frame or parent by name), and a new tab gets
  // no handle on this window.
  transformTags: {
    a: (tagName, { target, ...attribs }) => ({
      tagName,
      attribs: { ...attribs, ...(target === '_blank' ? { target } : {}), rel: 'noopener noreferrer' },
    }),
  },
  disallowedTagsMode: 'discard',
};

// sanitize-html brings an HTML parser and postcss, and only writes of rich text need it: it is
// loaded on first use (the bundle keeps it a lazily required package).
let loaded: Promise<typeof SanitizeHtml> | undefined;
const loadSanitizeHtml = async (): Promise<typeof SanitizeHtml> =>
  ((await import('sanitize-html')) as unknown as { default: typeof SanitizeHtml }).default;

/** The HTML with only what the allow-list keeps: safe to store and to render in any page. */
export async function sanitizeRichText(html: string): Promise<string> {
  const sanitizeHtml = await (loaded ??= loadSanitizeHtml());
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Whether sanitised HTML shows nothing: no text and no image, only empty paragraphs and breaks. */
export function isBlankRichText(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\s/g, '') === '';
}
