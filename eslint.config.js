import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Imports flow one way: shared ← apps; e2e and bench may use the apps; no app uses another.
// Cycles are caught by scripts/check-import-cycles.mjs (the import plugins need native
// resolver builds that the package registry here does not carry for every platform).
const forbidden = (...groups) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: groups.map(([pattern, message]) => (typeof pattern === 'string' ? { regex: pattern, message } : { group: pattern, message })),
    },
  ],
});

// A module's repository is used only by its own service; everyone else calls that service.
// From modules/<X>/, a repository one folder up ('../<Y>/<y>.repo') belongs to another module;
// from anywhere, a path through 'modules/<Y>/' names one (http/, db/, cli/ and app.ts own none).
const FOREIGN_REPO_MESSAGE = "Another module's repository: call that module's service instead.";
const MODULE_REPO = ['(^|/)modules/[^/]+/[^/]+\\.repo(\\.js)?$', FOREIGN_REPO_MESSAGE];
const SIBLING_MODULE_REPO = ['^\\.\\./[^./][^/]*/[^/]+\\.repo(\\.js)?$', FOREIGN_REPO_MESSAGE];
const serverGroups = [
  [['@cloud-classroom/web*', '**/apps/web/**', '../../web/**'], 'The server must not import the web app.'],
  [['**/packages/shared/src/**'], 'Import the shared package as @cloud-classroom/shared/<module>.'],
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'artifacts/**', 'data/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['packages/shared/**'],
    rules: forbidden(
      [['@cloud-classroom/server*', '@cloud-classroom/web*', '**/apps/**'], 'packages/shared must not depend on an app.'],
    ),
  },
  {
    files: ['apps/server/**'],
    rules: forbidden(...serverGroups, MODULE_REPO),
  },
  {
    files: ['apps/server/src/modules/**'],
    rules: forbidden(...serverGroups, MODULE_REPO, SIBLING_MODULE_REPO),
  },
  {
    // Services take the time from services.clock, so that tests can set it (ARCHITECTURE.md).
    files: ['apps/server/src/modules/**', 'apps/server/src/jobs/**', 'apps/server/src/http/audit-log.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'Take the time from the clock (services.clock.now()).' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Take the time from the clock (services.clock.now()).' },
      ],
    },
  },
  {
    files: ['apps/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbidden(
        [['@cloud-classroom/server*', '**/apps/server/**', '../../server/**'], 'The web app must not import the server.'],
        [['**/packages/shared/src/**'], 'Import the shared package as @cloud-classroom/shared/<module>.'],
      ),
    },
  },
);
