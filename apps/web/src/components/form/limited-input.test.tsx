import { courseCreateSchema } from '@cloud-classroom/shared/courses';
import { userCreateSchema } from '@cloud-classroom/shared/users';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../lib/i18n';
import { stubBrowser } from '../list-page/list-page-test-kit';
import { cutByPaste, LimitedInput, LimitedTextArea, maxLengthOf } from './limited-input';

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

describe('cutByPaste', () => {
  it.each([
    ['fits', '', 0, 0, 'x'.repeat(100), 100, 0],
    ['an empty field', '', 0, 0, 'x'.repeat(5000), 100, 4900],
    ['after what is there', 'abc', 3, 3, 'x'.repeat(99), 100, 2],
    ['over a selection it replaces', 'abcdef', 1, 5, 'x'.repeat(97), 100, 0],
  ])('%s', (_case, value, start, end, pasted, max, cut) => {
    expect(cutByPaste(value, start, end, pasted, max)).toBe(cut);
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
