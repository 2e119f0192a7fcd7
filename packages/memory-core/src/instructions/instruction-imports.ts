// What `import-instructions` sent, as a forget sees it: the record (kept by memory-node-storage's
// FileInstructionLedger) says which lines of an instruction file are in memory already, so a
// re-import skips them. A forget that deletes those memories must let go of their records, or a
// later import would skip lines that are no longer remembered. Every tool forgets through
// ForgetService, so the record is kept honest in one place.

export interface InstructionImports {
  /** Lets go of the lines imported into these groups (a forget of their scope); how many files went. */
  forgetGroups(groupIds: readonly string[]): Promise<number>;
  /** Lets go of the lines whose memories are these episodes (by name: a forgotten source); how many lines went. */
  forgetEpisodes(episodeNames: readonly string[]): Promise<number>;
}
export const InstructionImports = Symbol.for('graphiti-memory.InstructionImports');
