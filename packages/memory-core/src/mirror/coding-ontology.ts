// Seed 000's "Schema & Relations" as extraction guidance: what a coding session is about, in the
// words Graphiti's extraction model should use. Sent with captured digests and promotions as MCP
// `add_memory`'s `custom_extraction_instructions` where the server declares that argument (upstream
// main since 29a7565, the same build that lists `add_triplet`); REST and released MCP images have
// no such field, so there it is not sent and extraction uses its defaults.

export const CODING_ENTITY_TYPES = [
  'Repository',
  'Branch',
  'Commit',
  'PullRequest',
  'File',
  'Symbol',
  'Decision',
  'Task',
  'Tool',
  'Person',
  'Preference',
  'Procedure',
  'Term',
] as const;

export const CODING_RELATIONS = [
  'APPLIES_TO',
  'OWNS',
  'MODIFIES',
  'USES_TOOL',
  'PREFERS',
  'ALIAS_OF',
  'DEPENDS_ON',
  'DECIDED',
  'SUPERSEDES',
] as const;

export const CODING_ONTOLOGY_INSTRUCTIONS = [
  'This episode comes from a software engineering session with a coding assistant.',
  `Prefer these entity types: ${CODING_ENTITY_TYPES.join(', ')}.`,
  `Prefer these relations: ${CODING_RELATIONS.join(', ')}.`,
  'A decision, preference or procedure APPLIES_TO the repository, branch or files it names; a commit or pull request MODIFIES files; a person OWNS code or PREFERS a tool; a term is an ALIAS_OF what it abbreviates.',
  'Use repository-relative file paths and exact symbol names as entity names. Do not invent entities the text does not name.',
].join(' ');
