import { describe, expect, it } from 'vitest';
import { conflictingMessageKeys } from './messages';

describe('the message catalogue', () => {
  it('gets no key from two places with different texts: every feature bundle and the shared catalogue agree', () => {
    // Every feature's bundle, as the back office loads them one by one.
    const bundles = import.meta.glob('../features/**/*-messages.ts', { eager: true });
    expect(Object.keys(bundles).length).toBeGreaterThan(10);
    expect(conflictingMessageKeys()).toEqual([]);
  });
});
