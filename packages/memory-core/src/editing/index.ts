/** Editing a curated memory: `MemoryEditing.edit` supersedes it (the new version promoted, the old episode forgotten). */
export { editedMemory, MemoryEditing, SupersedingMemoryEditing, type MemoryEdit, type MemoryEditOutcome, type StoredMemory } from './memory-editing.js';
