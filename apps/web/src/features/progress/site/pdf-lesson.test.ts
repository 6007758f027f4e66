import { describe, expect, it } from 'vitest';
import { startPage } from './pdf-lesson';

describe('the document lesson', () => {
  it.each([
    { saved: 0, pages: 4, page: 1 },
    { saved: 3, pages: 4, page: 3 },
    { saved: 9, pages: 4, page: 4 },
    { saved: 2.7, pages: null, page: 2 },
    { saved: Number.NaN, pages: 4, page: 1 },
  ])('opens a document saved at page $saved of $pages at page $page', ({ saved, pages, page }) => {
    expect(startPage(saved, pages)).toBe(page);
  });
});
