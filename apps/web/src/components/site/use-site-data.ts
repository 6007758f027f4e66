import { useCallback, useEffect, useState } from 'react';
import { http, type Query } from '../../lib/http-client';

export type SiteData<T> = {
  /** The last answer, kept while a newer request runs (a page of results stays until the next arrives). */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
};

/**
 * A GET for a learner page, without TanStack Query (it comes with the back office; learner
 * pages keep to their 130 KiB budget). Silent: the page shows the failure in place, with a
 * retry, rather than as a notification. A newer request wins over an older one still running.
 * `path` undefined waits (nothing to load yet).
 */
export function useSiteData<T>(path: string | undefined, query?: Query): SiteData<T> {
  const [attempt, setAttempt] = useState(0);
  const key = path === undefined ? undefined : `${path}?${JSON.stringify(query ?? {})}#${attempt}`;
  // What the last finished request was for: loading is "the current key has not finished yet".
  const [done, setDone] = useState<{ key: string | undefined; data: T | undefined; error: unknown }>({
    key: undefined,
    data: undefined,
    error: undefined,
  });

  useEffect(() => {
    if (key === undefined || path === undefined) return undefined;
    const controller = new AbortController();
    const search = JSON.parse(key.slice(path.length + 1, key.lastIndexOf('#'))) as Query;
    http.get<T>(path, search, { silent: true, signal: controller.signal }).then(
      (data) => setDone({ key, data, error: undefined }),
      (error: unknown) => {
        if (!controller.signal.aborted) setDone({ key, data: undefined, error });
      },
    );
    return () => controller.abort();
  }, [key, path]);

  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  const loading = key !== undefined && done.key !== key;
  return { data: done.data, error: loading ? undefined : done.error, loading, reload };
}
