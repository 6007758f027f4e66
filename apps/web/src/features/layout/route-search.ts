import { clampSearchPattern, FUSE_OPTIONS } from '@cloud-classroom/shared/constants';
import Fuse from 'fuse.js';
import type { SearchEntry } from './view-routes';

/**
 * SPEC §9's fuzzy search over entries' `title` and `path`; titles arrive already translated, and
 * may hold a view's titles in both languages so that either finds it.
 */
export function createRouteSearch<Entry extends SearchEntry>(entries: readonly Entry[]): (pattern: string) => Entry[] {
  const fuse = new Fuse(entries, FUSE_OPTIONS);
  return (pattern) => {
    const clamped = clampSearchPattern(pattern.trim());
    return clamped === '' ? [] : fuse.search(clamped).map((result) => result.item);
  };
}
