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
// The login page and the learner pages stay small (DESIGN.md §8: ≤ 130 KiB): no antd, no i18next,
// no TanStack Query, and no zod, which the shared schema modules bring (their types are free).
const webGroups = [
  [['@cloud-classroom/server*', '**/apps/server/**', '../../server/**'], 'The web app must not import the server.'],
  [['**/packages/shared/src/**'], 'Import the shared package as @cloud-classroom/shared/<module>.'],
];
// Both languages of the shared catalogue: what the first screen loads takes only the one it shows
// (lib/use-locale-text; @cloud-classroom/shared/message-format for the rules without the text).
const BOTH_CATALOGUES = {
  group: ['@cloud-classroom/shared/messages'],
  allowTypeImports: true,
  message: 'Both languages of the catalogue: use lib/use-locale-text (t, localizeMessage) and @cloud-classroom/shared/message-format; import its types only.',
};
const SCHEMA_MODULES = ['applicants', 'auth', 'certificates', 'courses', 'deploy', 'depts', 'dicts', 'http', 'logs', 'media', 'menus', 'monitor', 'online', 'progress', 'roles', 'storage', 'users'];
const learnerPageRules = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...webGroups.map(([group, message]) => ({ group, message })),
        {
          group: ['antd', 'antd/*', '@ant-design/*', 'i18next', 'react-i18next', '@tanstack/*', 'zod', 'zod/*'],
          message: 'Learner pages and the login page use the site kit (components/site), lib/use-locale-text and lib/http-client, not the back office’s libraries.',
        },
        BOTH_CATALOGUES,
        {
          group: SCHEMA_MODULES.map((name) => `@cloud-classroom/shared/${name}`),
          allowTypeImports: true,
          message: 'This shared module builds zod schemas: import its types only (import type), and rules from a zod-free module.',
        },
        {
          // Their styles are plain CSS, free to share.
          regex: '^(?!.*\\.css$).*(^|/)(components/(list-page|form|tree|rich-text|permission|menu-icon)|lib/(i18n|messages|toast|download|use-menu-title))(/|$)',
          message: 'A back-office module: it brings antd or i18next.',
        },
      ],
    },
  ],
};
// Journeys wait for the state that must hold (a dialog opened, a value shown), never for a fixed
// time, which a loaded CI machine outlasts or undercuts. Where real time passing is the point,
// the line is allowed by a disable comment that says why after " -- ", which this plugin checks.
const journeyRules = {
  'no-restricted-syntax': [
    'error',
    {
      selector: "CallExpression[callee.property.name='waitForTimeout']",
      message: 'Wait for the state that must hold (openDialog(), expect.poll, locator.waitFor), not for a time; where time passing is the point, disable this line saying why after " -- ".',
    },
  ],
  'journeys/explained-disable': 'error',
};
const journeysPlugin = {
  rules: {
    'explained-disable': {
      meta: { type: 'problem', schema: [], messages: { unexplained: 'Say why the rule does not apply, after " -- ".' } },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              if (/^\s*eslint-disable/.test(comment.value) && !/\s--\s+\S/.test(comment.value)) context.report({ loc: comment.loc, messageId: 'unexplained' });
            }
          },
        };
      },
    },
  },
};
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
    files: ['e2e/**'],
    plugins: { journeys: journeysPlugin },
    rules: journeyRules,
  },
  {
    files: ['apps/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbidden(...webGroups),
    },
  },
  {
    files: ['apps/web/src/features/*/site/**', 'apps/web/src/components/site/**', 'apps/web/src/features/auth/login-page.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: learnerPageRules,
  },
  {
    // The entry: what every first screen loads before its page.
    files: ['apps/web/src/main.tsx', 'apps/web/src/app/routes.tsx', 'apps/web/src/app/root-layout.tsx', 'apps/web/src/app/pages/**', 'apps/web/src/lib/use-locale-text.ts', 'apps/web/src/lib/http-client.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...webGroups.map(([group, message]) => ({ group, message })), BOTH_CATALOGUES] }] },
  },
);
