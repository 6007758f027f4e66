import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface LockedPackage {
  version?: string;
  engines?: Record<string, string> | string[];
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as T;
}

/**
 * `npm install` warns `EBADENGINE` for every installed package whose `engines.node` the running Node
 * does not satisfy; a user who follows the README on the oldest Node it names must see none.
 */
describe('the locked dependencies', () => {
  const declared = readJson<{ engines: { node: string } }>('package.json').engines.node;
  const oldestNode = semver.minVersion(declared);

  it('declare a lowest Node version', () => {
    expect(oldestNode, `package.json engines.node "${declared}"`).not.toBeNull();
  });

  it("all run on the oldest Node the project's package.json allows", () => {
    const lock = readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const refusing = Object.entries(lock.packages)
      .filter(([location]) => location.includes('node_modules/'))
      .flatMap(([location, locked]) => {
        const wanted = Array.isArray(locked.engines) ? undefined : locked.engines?.node;
        if (!wanted || !oldestNode) return [];
        // A range npm itself cannot read is not one it warns about.
        if (!semver.validRange(wanted)) return [];
        return semver.satisfies(oldestNode, wanted) ? [] : [`${location}@${locked.version ?? '?'} wants node ${wanted}`];
      });
    expect(refusing, `these would print EBADENGINE on Node ${oldestNode?.version}`).toEqual([]);
  });
});
