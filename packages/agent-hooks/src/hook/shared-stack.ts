// The libraries the VS Code extension's runtime takes from this core instead of bundling a second
// copy in its VSIX (its esbuild plugin, apps/vscode-extension/shared-stack-plugin.mjs, maps each
// bare import onto one of these, reading this list). The runner itself imports them
// directly; exporting them whole costs the cold start a little compiling, which the code cache
// (core-loader.ts) takes back.
export * as graphitiClient from '@graphiti-memory/graphiti-client';
export * as memoryCore from '@graphiti-memory/memory-core';
export * as memoryNodeStorage from '@graphiti-memory/memory-node-storage';
export * as promptElements from '@graphiti-memory/prompt-elements';
export * as promptTsx from '@vscode/prompt-tsx';
export * as envPaths from 'env-paths';
export * as inversify from 'inversify';
export * as agentHooks from '@graphiti-memory/agent-hooks';
