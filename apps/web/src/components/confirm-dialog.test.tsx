import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

/** A page whose confirmed action runs until `finish` is called, as a request in flight does. */
function Page({ onConfirm }: { onConfirm: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <ConfirmDialog
        open
        title="Submit?"
        text="You cannot change your answers afterwards."
        confirmLabel="Submit"
        cancelLabel="Keep answering"
        busy={busy}
        onConfirm={() => {
          setBusy(true);
          onConfirm();
        }}
        onCancel={() => {}}
      />
      <button type="button" onClick={() => setBusy(false)}>
        finish
      </button>
    </>
  );
}

describe('ConfirmDialog', () => {
  afterEach(cleanup);

  it('confirms once for a double click, and again only once the action is over', () => {
    const onConfirm = vi.fn();
    render(<Page onConfirm={onConfirm} />);
    const submit = screen.getByRole('button', { name: 'Submit' });
    // Both clicks land before React re-renders the button as disabled (act renders at its end).
    act(() => {
      submit.click();
      submit.click();
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'finish' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });
});
