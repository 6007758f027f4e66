import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stemKeyOf } from './stem-key.js';

describe('stemKeyOf', () => {
  it('is the SHA-256 of the type and the normalised stem text', () => {
    expect(stemKeyOf('single', '<p>Hello  <b>World</b></p>')).toBe(crypto.createHash('sha256').update('single\nhello world\n').digest('hex'));
  });

  it('ignores markup, width, case and spacing, but not the type or the words', () => {
    const key = stemKeyOf('blank', '<p>灭火器的使用口诀是 ABC 1</p>');
    expect(stemKeyOf('blank', '灭火器的使用口诀是\u3000ＡＢＣ　１ ')).toBe(key);
    expect(stemKeyOf('blank', '<div>灭火器的使用口诀是<br>abc&nbsp;1</div>')).toBe(key);
    expect(stemKeyOf('single', '<p>灭火器的使用口诀是 ABC 1</p>')).not.toBe(key);
    expect(stemKeyOf('blank', '<p>灭火器的使用口诀是 ABC 2</p>')).not.toBe(key);
  });

  it('tells apart picture questions with the same words and different pictures', () => {
    const first = stemKeyOf('single', '<p>这是什么标志？<img src="/api/questions/images/1"></p>');
    expect(stemKeyOf('single', '<p>这是什么标志？ <img src="/api/questions/images/1" alt=""></p>')).toBe(first);
    expect(stemKeyOf('single', '<p>这是什么标志？<img src="/api/questions/images/2"></p>')).not.toBe(first);
  });
});
