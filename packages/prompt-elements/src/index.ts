export { GraphitiMemory, type GraphitiMemoryProps } from './graphiti-memory.js';
export { PromotedEpisode, promotedEpisodeText, type PromotedEpisodeProps } from './promoted-episode.js';
export {
  DIRECTIVE_KINDS,
  MEMORY_DIRECTIVES_HELP,
  MemoryDirectivesHelp,
  type MemoryDirectivesHelpProps,
} from './memory-directives-help.js';
export {
  MEMORY_BLOCK_PREAMBLE,
  MEMORY_BLOCK_TAG,
  fitMemoryBlock,
  fitMemoryLines,
  formatDay,
  factLineSuffix,
  formatFactLine,
  memoryBlock,
  neutraliseRecalledText,
  orderByRank,
  sanitiseFactText,
  type FitLinesOptions,
} from './fact-lines.js';
