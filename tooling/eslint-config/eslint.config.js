import { createEslintConfig } from './src/index.js';

export default createEslintConfig(import.meta.dirname);
