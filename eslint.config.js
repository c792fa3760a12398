import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/artifacts/**',
      'apps/server/drizzle/**',
      'apps/server/dist-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // CLIs, scripts and benchmarks talk to a terminal on purpose.
    files: [
      'scripts/**',
      '**/bench/**',
      '**/bin/**',
      '**/src/cli.ts',
      '**/src/scripts/**',
      '**/src/main.ts',
      '**/build.mjs',
    ],
    rules: { 'no-console': 'off' },
  },
);
