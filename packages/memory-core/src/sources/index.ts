export { asEpisodeSource, EpisodeSources, factSourceOf, SOURCE_FIELD_MAX_CHARS, sourceField, type EpisodeSource } from './episode-sources.js';
export { InMemoryEpisodeSources } from './in-memory-episode-sources.js';
export { MessageSourceStamp, toolLabel } from './message-source-stamp.js';
