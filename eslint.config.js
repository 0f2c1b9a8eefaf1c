import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { serverZones } from './eslint.server-layers.js';

/**
 * Imports flow one way: shared code (api/, components/, lib/) → features → app. A feature may read
 * another's slice (its state, selectors and actions, as the store knows them), never its pages,
 * components or calls. ESLint's own rule, on the relative paths the client writes.
 */
const sharedMustNotImport = {
  regex: '^(\\.\\./)+(features|app)/',
  message: 'Shared code (api/, components/, lib/) must not know the features or the app.',
};
/**
 * Every call goes through the one data layer (web/src/api/api.ts, RTK Query, over the one HTTP
 * client that adds the bearer token and parses replies with the contract): outside web/src/api/
 * nothing opens a request by hand.
 */
const byHandRequest = 'Calls go through the data layer: an endpoint in <feature>.api.ts (api.injectEndpoints), not a request by hand.';
const requestGlobals = ['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'];
const noRequestByHand = {
  'no-restricted-globals': ['error', ...requestGlobals.map((name) => ({ name, message: byHandRequest }))],
  'no-restricted-properties': [
    'error',
    ...['window', 'globalThis', 'self'].flatMap((object) => requestGlobals.map((property) => ({ object, property, message: byHandRequest }))),
  ],
};
/** How import-x reads the server's TypeScript to follow its imports (for no-cycle, across files). */
const importXSettings = {
  'import-x/resolver-next': [createNodeResolver()],
  'import-x/extensions': ['.ts', '.js'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
};
const featureMustNotImport = [
  { regex: '^(\\.\\./)+app/', message: 'Features must not import from app/.' },
  {
    regex: '^\\.\\./(?!\\.\\.)[^/]+/(?![^/]+\\.slice\\.ts$)',
    message: 'A feature may import only the slice of another feature.',
  },
];

export default tseslint.config(
  // The hostile EPUB's script is the book's own attack on the reader (reader.test.ts), not ours.
  { ignores: ['**/dist/**', 'node_modules/**', 'data/**', 'bench/out/**', 'web/e2e/fixtures/hostile-epub/book/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'web/e2e/**/*.ts', '*.ts', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/public/notice-worker.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/api/**'],
    rules: noRequestByHand,
  },
  {
    files: ['web/src/{api,components,lib}/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sharedMustNotImport] }] },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: featureMustNotImport }] },
  },
  {
    // The server's layers (eslint.server-layers.js). Tests and fixtures build the whole app, so they sit above every layer.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts', 'server/src/test/**', 'server/src/**/fixtures/**'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: serverZones }] },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importXSettings,
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
