import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';

export type LoadedComponent<P extends object> = ComponentType<P> & {
  /** Starts loading the code now (a page about to be shown); harmless to call again. */
  preload(): Promise<void>;
};

/**
 * A component whose code loads the first time it is drawn (or on `preload`), showing
 * `placeholder` meanwhile — like `React.lazy`, but without Suspense. React holds a Suspense
 * boundary's content back until 300 ms after its fallback appeared (its FALLBACK_THROTTLE_MS),
 * and the back office met that twice on every load, once for the shell and once for the page:
 * 0.6 s of a 1 s start spent waiting. Here the code's arrival is an ordinary state update, drawn
 * at once. Once loaded, it draws with no placeholder at all.
 */
export function loadedComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, placeholder: ReactNode): LoadedComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let failure: unknown;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        failure = error;
      },
    ));

  function Loaded(props: P) {
    const [, arrived] = useState(0);
    useEffect(() => {
      if (loaded === undefined && failure === undefined) void preload().then(() => arrived((count) => count + 1));
    }, []);
    // To the nearest error boundary, as a failed lazy() does.
    if (failure !== undefined) throw failure;
    return loaded === undefined ? placeholder : createElement(loaded, props);
  }
  return Object.assign(Loaded, { preload });
}
