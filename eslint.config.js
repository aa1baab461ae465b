import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'coverage/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only electron/ imports electron.' }] },
      ],
    },
  },
  {
    // A handler is the contract's face on a core service; what two handlers share belongs in a service.
    files: ['src/core/handlers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only electron/ imports electron.' }],
          patterns: [
            {
              group: ['./*', '**/handlers/*'],
              message:
                'Handlers never import handlers: move what they share into a core service (see docs/ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only electron/ imports electron.' }],
          patterns: [
            {
              group: ['**/core/handlers/**'],
              message: 'The CLI calls core through its handlers map, never a handler module itself.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/**', '**/service/**', '**/host/**', '**/cli/**'],
              message: 'The renderer reaches core only through the RPC contract in src/shared.',
            },
            {
              group: ['node:*', 'better-sqlite3', 'electron'],
              message: 'The renderer runs in a sandboxed page.',
            },
          ],
        },
      ],
    },
  },
);
