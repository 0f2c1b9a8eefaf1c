import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

const webSrc = path.join(import.meta.dirname, 'web/src');
const features = fs.readdirSync(path.join(webSrc, 'features'));

/**
 * Imports flow one way: shared code (api/, components/, lib/) → features → app. A feature may read
 * another's slice (its state, selectors and actions, as the store knows them), never its pages,
 * components or calls.
 */
const importDirection = [
  {
    target: ['web/src/api', 'web/src/components', 'web/src/lib'],
    from: ['web/src/features', 'web/src/app'],
    message: 'Shared code must not know the features or the app.',
  },
  { target: 'web/src/features', from: 'web/src/app', message: 'Features must not import from app/.' },
  ...features.map((feature) => ({
    target: `web/src/features/${feature}`,
    from: `${webSrc}/features/!(${feature})/**`,
    except: [`${webSrc}/features/*/*.slice.ts`],
    message: 'A feature may import only the slice of another feature.',
  })),
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
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: importDirection }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
