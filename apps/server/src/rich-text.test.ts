import { describe, expect, it } from 'vitest';
import { isBlankRichText, sanitizeRichText } from './rich-text.js';

describe('sanitizeRichText', () => {
  it('keeps the usual formatting, headings, lists, tables, code and quotes', async () => {
    const html = [
      '<h2>Safety</h2><p><strong>Bold</strong>, <em>italic</em>, <u>under</u>, <s>gone</s>, x<sub>2</sub>, x<sup>2</sup><br></p>',
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol>',
      '<table><thead><tr><th colspan="2">Head</th></tr></thead><tbody><tr><td rowspan="2">Cell</td><td>B</td></tr></tbody></table>',
      '<pre class="language-ts"><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
      '<blockquote>Quoted</blockquote><hr>',
    ].join('');
    expect(await sanitizeRichText(html)).toBe(html.replace('<br>', '<br />').replace('<hr>', '<hr />'));
  });

  it('keeps links with safe protocols, and every link gets rel=noopener', async () => {
    expect(await sanitizeRichText('<a href="https://example.com/x" target="_blank">x</a>')).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(await sanitizeRichText('<a href="mailto:hr@example.com" rel="opener">mail</a>')).toBe(
      '<a href="mailto:hr@example.com" rel="noopener noreferrer">mail</a>',
    );
    expect(await sanitizeRichText('<a href="/courses/1" target="_top">in</a>')).toBe('<a href="/courses/1" rel="noopener noreferrer">in</a>');
  });

  it.each([
    ['javascript: link', '<a href="javascript:alert(1)">x</a>'],
    ['javascript: with entities and case', '<a href="JaVa&#x53;cript&colon;alert(1)">x</a>'],
    ['javascript: behind whitespace', '<a href=" &#9;javascript:alert(1)">x</a>'],
    ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
    ['data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ])('drops the address of a %s', async (_label, html) => {
    expect(await sanitizeRichText(html)).toBe('<a rel="noopener noreferrer">x</a>');
  });

  it('keeps images from the web or this site only', async () => {
    expect(await sanitizeRichText('<img src="https://cdn.example.com/a.png" alt="a" width="20">')).toBe(
      '<img src="https://cdn.example.com/a.png" alt="a" width="20" />',
    );
    expect(await sanitizeRichText('<img src="/file/图片/a.png">')).toBe('<img src="/file/图片/a.png" />');
    expect(await sanitizeRichText('<img src="api/media/3/content">')).toBe('<img src="api/media/3/content" />');
    for (const src of ['data:image/png;base64,iVBORw0KGgo=', 'javascript:alert(1)', '//evil.example.com/a.png', 'ftp://example.com/a.png']) {
      expect(await sanitizeRichText(`<img src="${src}">`), src).toBe('<img />');
    }
  });

  it.each([
    ['a script', '<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['a script in another case', '<SCRIPT SRC=//evil.example.com/x.js></SCRIPT><p>a</p>', '<p>a</p>'],
    ['a style element', '<style>body{display:none}</style><p>a</p>', '<p>a</p>'],
    ['a style attribute', '<p style="background:url(javascript:alert(1))">a</p>', '<p>a</p>'],
    ['event handlers', '<img src="/x.png" onerror="alert(1)"><p onclick="alert(1)" onmouseover=alert(1)>a</p>', '<img src="/x.png" /><p>a</p>'],
    ['an iframe', '<iframe src="https://evil.example.com"></iframe><p>a</p>', '<p>a</p>'],
    ['an object and an embed', '<object data="x.swf"></object><embed src="x.swf"><p>a</p>', '<p>a</p>'],
    ['a form', '<form action="https://evil.example.com"><input name="password"><button>go</button></form>', 'go'],
    ['an svg with a script', '<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>', '<a rel="noopener noreferrer">x</a>'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example.com"><p>a</p>', '<p>a</p>'],
    ['a base element', '<base href="https://evil.example.com/"><p>a</p>', '<p>a</p>'],
    ['a classed element', '<p class="admin-only" id="x">a</p>', '<p>a</p>'],
    ['an unclosed tag', '<p>a<img src=x onerror=alert(1)//', '<p>a</p>'],
    ['a comment hiding a script', '<!--<script>alert(1)</script>--><p>a</p>', '<p>a</p>'],
    ['text that looks like markup', '1 < 2 && "x" > y', '1 &lt; 2 &amp;&amp; "x" &gt; y'],
  ])('strips %s', async (_label, html, expected) => {
    expect(await sanitizeRichText(html)).toBe(expected);
  });
});

describe('isBlankRichText', () => {
  it('is true for markup that shows nothing', () => {
    for (const html of ['', '<p></p>', '<p><br /></p>', '<p>&nbsp; </p><p>\n</p>']) expect(isBlankRichText(html), html).toBe(true);
  });

  it('is false for text or an image', () => {
    for (const html of ['<p>a</p>', 'a', '<p><img src="/file/a.png" /></p>']) expect(isBlankRichText(html), html).toBe(false);
  });
});
