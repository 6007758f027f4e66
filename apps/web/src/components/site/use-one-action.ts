import { useCallback, useRef, useState } from 'react';
import { UserAction } from '../../lib/http-client';

/**
 * A learner page's button or form doing one thing at a time: `busy` disables it while the work
 * runs, and `run` starts nothing while it does, since a double click's second click lands before
 * the re-render that disables the button. Each run is one user action, whose writes carry its
 * idempotency keys (pass `action` on to the requests).
 */
export function useOneAction(): { busy: boolean; run: (work: (action: UserAction) => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = useCallback(async (work: (action: UserAction) => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work(new UserAction());
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, run };
}
