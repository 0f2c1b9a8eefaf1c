import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * Imports flow one way: shared code (api/, components/, lib/) → features → app. A feature may read
 * another's slice (its state, selectors and actions, as the store knows them), never its pages,
 * components or calls. ESLint's own rule, on the relative paths the client writes.
 */
const sharedMustNotImport = {
  regex: '^(\\.\\./)+(features|app)/',
  message: 'Shared code (api/, components/, lib/) must not know the features or the app.',
};
const featureMustNotImport = [
  { regex: '^(\\.\\./)+app/', message: 'Features must not import from app/.' },
  {
    regex: '^\\.\\./(?!\\.\\.)[^/]+/(?![^/]+\\.slice\\.ts$)',
    message: 'A feature may import only the slice of another feature.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'data/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'web/e2e/**/*.ts', '*.ts', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
