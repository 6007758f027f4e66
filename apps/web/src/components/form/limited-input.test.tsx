import { courseCreateSchema } from '@cloud-classroom/shared/courses';
import { userCreateSchema } from '@cloud-classroom/shared/users';
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../lib/i18n';
import { stubBrowser } from '../list-page/list-page-test-kit';
import { LimitedInput, LimitedTextArea, maxLengthOf } from './limited-input';

describe('maxLengthOf', () => {
  it.each([
    ['a trimmed, required title', courseCreateSchema.shape.title, 100],
    ['a summary with a default', courseCreateSchema.shape.summary, 500],
    ['a nick name', userCreateSchema.shape.nickName, 20],
    ['a number', courseCreateSchema.shape.maxPlaybackRate, undefined],
  ])('reads %s', (_name, schema, max) => {
    expect(maxLengthOf(schema)).toBe(max);
  });
});

function paste(field: HTMLElement, text: string) {
  fireEvent.paste(field, { clipboardData: { getData: () => text } });
}

describe('LimitedInput', () => {
  beforeEach(() => stubBrowser());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the schema’s limit as a counter and says how much of a paste was cut', () => {
    render(<LimitedInput schema={courseCreateSchema.shape.title} aria-label="Title" defaultValue="Fire" />);
    const field = screen.getByLabelText('Title') as HTMLInputElement;
    expect(field.maxLength).toBe(100);
    expect(screen.getByText('4 / 100')).toBeTruthy();
    field.setSelectionRange(4, 4);
    paste(field, 'x'.repeat(5000));
    expect(screen.getByRole('status').textContent).toBe('The paste was longer than the limit of 100 characters: the last 4904 were cut');
    // Typing on means it was seen.
    fireEvent.keyDown(field, { key: 'a' });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing for a paste that fits', () => {
    render(<LimitedTextArea schema={courseCreateSchema.shape.summary} aria-label="Summary" />);
    paste(screen.getByLabelText('Summary'), 'A short summary');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('0 / 500')).toBeTruthy();
  });

  it('refuses a schema without a maximum length', () => {
    expect(() => render(<LimitedInput schema={courseCreateSchema.shape.maxPlaybackRate} aria-label="Rate" />)).toThrow(/no maximum length/);
  });
});

describe('limited text fields', () => {
  const src = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(file);
      return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [file] : [];
    });

  it('are all LimitedInput, LimitedTextArea or LimitedTextField: no bare maxLength cuts a paste silently', () => {
    const own = ['components/form/limited-input.tsx', 'components/site/limited-text-field.tsx'].map((file) => path.join(src, file));
    const bare: string[] = [];
    for (const file of sources(src).filter((one) => !own.includes(one))) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/\bmaxLength[=:]/.test(line) && !`${lines[index - 1] ?? ''}${line}`.includes('limit-exempt:')) bare.push(`${path.relative(src, file)}:${index + 1}`);
      });
    }
    expect(bare).toEqual([]);
  });
});
