import { clampSearchPattern, FUSE_OPTIONS } from '@cloud-classroom/shared/constants';
import Fuse from 'fuse.js';
import type { SearchEntry } from './view-routes';

/** SPEC §9's fuzzy search; titles arrive already translated so either language finds its views. */
export function createRouteSearch(entries: readonly SearchEntry[]): (pattern: string) => SearchEntry[] {
  const fuse = new Fuse(entries, FUSE_OPTIONS);
  return (pattern) => {
    const clamped = clampSearchPattern(pattern.trim());
    return clamped === '' ? [] : fuse.search(clamped).map((result) => result.item);
  };
}
