import type { UserConfig } from 'vitest/config';

/** The shared vitest settings of the repo, merged with a package's own overrides. */
export declare function createVitestConfig(overrides?: UserConfig): UserConfig;
