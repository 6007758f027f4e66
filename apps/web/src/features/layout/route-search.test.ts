import { FUSE_OPTIONS } from '@cloud-classroom/shared/constants';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { createRouteSearch } from './route-search';
import type { SearchEntry } from './view-routes';

const ENTRIES: SearchEntry[] = [
  { path: '/dashboard', title: ['Dashboard'] },
  { path: '/system/user', title: ['System', 'Users'] },
  { path: '/system/role', title: ['System', 'Roles'] },
  { path: '/system/dict', title: ['System', 'Dictionaries'] },
  { path: '/monitor/online', title: ['Monitoring', 'Online users'] },
  { path: '/monitor/server', title: ['Monitoring', 'Server status'] },
  { path: '/sys-tools/swagger', title: ['Tools', '接口文档'] },
];

const search = createRouteSearch(ENTRIES);
const pathsOf = (pattern: string) => search(pattern).map((entry) => entry.path);

describe('createRouteSearch', () => {
  it("uses SPEC §9's options", () => {
    expect(FUSE_OPTIONS).toMatchObject({
      threshold: 0.4,
      keys: [
        { name: 'title', weight: 0.7 },
        { name: 'path', weight: 0.3 },
      ],
    });
  });

  it('finds by title, best match first', () => {
    expect(pathsOf('Dictionaries')[0]).toBe('/system/dict');
    expect(pathsOf('接口文档')).toEqual(['/sys-tools/swagger']);
  });

  it('tolerates a typo within the threshold', () => {
    expect(pathsOf('Dictonaries')[0]).toBe('/system/dict');
  });

  it('finds by path', () => {
    expect(pathsOf('/monitor/server')[0]).toBe('/monitor/server');
    expect(pathsOf('swagger')).toEqual(['/sys-tools/swagger']);
  });

  it('finds nothing for a pattern far from every title and path', () => {
    expect(search('qqqqqqqqq')).toEqual([]);
  });

  it('answers [] for an empty or blank pattern', () => {
    expect(search('')).toEqual([]);
    expect(search('   ')).toEqual([]);
  });

  it('clamps a pattern longer than 32 characters to its first 32', () => {
    const entries = [
      { path: '/edu/applicant-cert', title: ['Certificate issuing for applicants'] },
      { path: '/edu/import-cert', title: ['Certificate issuing for applicants by import'] },
    ];
    const pattern = 'Certificate issuing for applicants by import';
    expect(pattern.length).toBeGreaterThan(32);
    // Unclamped, Fuse 7 also scores the characters past the 32nd and ranks the longer title first.
    expect(new Fuse(entries, FUSE_OPTIONS).search(pattern)[0]?.item.path).toBe('/edu/import-cert');
    // Clamped to 'Certificate issuing for applican', the shorter title is the closer match.
    expect(createRouteSearch(entries)(pattern).map((entry) => entry.path)).toEqual(['/edu/applicant-cert', '/edu/import-cert']);
  });
});
