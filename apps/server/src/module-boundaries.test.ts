import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The messages the project's lint configuration gives this source, as if it lived at `file`. */
async function lintAs(eslint: ESLint, file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  // A source that does not parse would have no import to judge.
  expect(result?.fatalErrorCount).toBe(0);
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe("a module's repository", () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  it.each([
    ['another module', 'apps/server/src/modules/roles/bad.ts', "import { findUserDtos } from '../users/users.repo.js';"],
    ['another module, through a longer path', 'apps/server/src/modules/roles/bad.ts', "import { findUserDtos } from '../../modules/users/users.repo.js';"],
    ['the HTTP layer', 'apps/server/src/http/bad.ts', "import { insertLog } from '../modules/logs/logs.repo.js';"],
    ['the app', 'apps/server/src/bad.ts', "import { findUserDtos } from './modules/users/users.repo.js';"],
  ])('may not be imported from %s', async (_label, file, source) => {
    expect(await lintAs(eslint, file, `${source}\nvoid findUserDtos;\n`)).toEqual([
      expect.stringContaining("Another module's repository: call that module's service instead."),
    ]);
  }, 30_000);

  it.each([
    ['its own service', 'apps/server/src/modules/users/bad.ts', "import { findUserDtos } from './users.repo.js';"],
    ['another module, through its service', 'apps/server/src/modules/roles/bad.ts', "import { UserService } from '../users/users.service.js';"],
    ['a module, for the database-wide settings', 'apps/server/src/modules/auth/bad.ts', "import { getOrCreateSetting } from '../../db/app-setting.repo.js';"],
  ])('leaves alone %s', async (_label, file, source) => {
    expect(await lintAs(eslint, file, `${source}\n`)).toEqual([]);
  }, 30_000);
});
