import { createEslintConfig } from '@graphiti-memory/eslint-config';

export default createEslintConfig(import.meta.dirname);
