// The repo's one ESLint flat config. Each package's eslint.config.js is
// `export default createEslintConfig(import.meta.dirname)`.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersRule } from './layers-rule.js';
import { layers } from './layers.js';

export { layersRule } from './layers-rule.js';
export { layers } from './layers.js';

export const graphitiPlugin = { meta: { name: 'graphiti' }, rules: { layers: layersRule } };

/**
 * @param {string} packageDirectory the folder of the package being linted
 * @returns {import('typescript-eslint').ConfigArray}
 */
export function createEslintConfig(packageDirectory) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDirectory, 'package.json'), 'utf8'));
  const layer = layers[manifest.name];
  const platformAgnostic = layer !== undefined && layer.nodeBuiltins === false;
  return tseslint.config(
    { ignores: ['**/dist/**', '**/dist-testing/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**', '**/*.d.ts', '**/.vscode-test/**'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
      languageOptions: {
        ecmaVersion: 2023,
        sourceType: 'module',
        globals: { ...globals.node },
        parserOptions: { tsconfigRootDir: packageDirectory },
      },
      plugins: { graphiti: graphitiPlugin },
      rules: {
        'graphiti/layers': 'error',
        '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        '@typescript-eslint/no-explicit-any': 'error',
        'no-console': 'off',
        eqeqeq: ['error', 'always', { null: 'ignore' }],
        'prefer-const': 'error',
      },
    },
    platformAgnostic
      ? {
          files: ['src/**/*.ts', 'src/**/*.tsx'],
          ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          rules: {
            'no-restricted-globals': [
              'error',
              ...['process', 'Buffer', '__dirname', '__filename', 'require', 'global'].map((name) => ({
                name,
                message: `${manifest.name} is platform-agnostic: '${name}' is a Node global. Take what you need through a port.`,
              })),
            ],
          },
        }
      : {},
    {
      files: ['**/*.js', '**/*.mjs'],
      rules: { '@typescript-eslint/consistent-type-imports': 'off' },
    },
  );
}
