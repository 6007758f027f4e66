import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadedComponent } from './loaded-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A module whose arrival the test decides. */
function deferredModule() {
  let arrive!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<{ default: typeof Greeting }>((resolve, reject) => {
    arrive = () => resolve({ default: Greeting });
    fail = reject;
  });
  return { load: vi.fn(() => promise), arrive: () => act(async () => arrive()), fail: (error: Error) => act(async () => fail(error)) };
}

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <p>failed: {this.state.error.message}</p>;
  }
}

afterEach(cleanup);

describe('loadedComponent', () => {
  it('shows the placeholder, not a Suspense fallback, until the code arrives, then the component with its props', async () => {
    const module = deferredModule();
    const Loaded = loadedComponent(module.load, <p>loading</p>);
    render(
      <Suspense fallback={<p>suspended</p>}>
        <Loaded name="Li" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.queryByText('suspended')).toBeNull();
    await module.arrive();
    expect(screen.getByText('Hello Li')).toBeTruthy();
    expect(module.load).toHaveBeenCalledTimes(1);
  });

  it('draws at once, without a placeholder, once loaded (by an earlier use or a preload), and loads once', async () => {
    const module = deferredModule();
    const Loaded = loadedComponent(module.load, <p>loading</p>);
    const preloaded = Loaded.preload();
    await module.arrive();
    await preloaded;
    render(<Loaded name="Wang" />);
    expect(screen.getByText('Hello Wang')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    await Loaded.preload();
    expect(module.load).toHaveBeenCalledTimes(1);
  });

  it('hands a failed load to the nearest error boundary', async () => {
    const module = deferredModule();
    const Loaded = loadedComponent(module.load, <p>loading</p>);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Boundary>
        <Loaded name="Zhao" />
      </Boundary>,
    );
    await module.fail(new Error('chunk gone'));
    expect(screen.getByText('failed: chunk gone')).toBeTruthy();
  });
});
