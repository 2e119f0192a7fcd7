import { createEslintConfig } from '@graphiti-memory/eslint-config';

export default [
  ...createEslintConfig(import.meta.dirname),
  // The e2e test extension is a plain CommonJS VS Code extension loaded by VS Code itself.
  { files: ['e2e/test-extension/**/*.js', 'scripts/**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
];
