// The mirror's stable ids (seed 001): `conv:<id>`, `turn:<id>`, `section:<turn>:<n>`,
// `tool:<turn>:<n>` (its result `tool:<turn>:<n>:result`), `ref:<turn>:<n>`, and the uuids the
// server's nodes get from them. A uuid is derived from the group and the stable id, so every
// writer, every run and every face names one node the same way (REST's `/entity-node` MERGEs on it;
// MCP's `add_triplet` reuses a node whose uuid exists), and two groups never share a node.
import { sha256Hex } from '../scopes/sha256.js';

export const conversationNodeId = (sessionId: string): string => `conv:${sessionId}`;
export const turnNodeId = (turnId: string): string => `turn:${turnId}`;
export const sectionNodeId = (turnId: string, index: number): string => `section:${turnId}:${index}`;
export const toolNodeId = (turnId: string, index: number): string => `tool:${turnId}:${index}`;
export const toolResultNodeId = (turnId: string, index: number): string => `tool:${turnId}:${index}:result`;
export const referenceNodeId = (turnId: string, index: number): string => `ref:${turnId}:${index}`;

/** `sha256:<hex>` of the UTF-8 text: how the mirror names content it does not send. */
export async function contentHash(text: string): Promise<string> {
  return `sha256:${await sha256Hex(text)}`;
}

/**
 * A uuid (RFC 9562 version 8: the bits are ours) from SHA-256 of the group and the stable id.
 * Deterministic: the same node in the same group always has the same uuid.
 */
export async function mirrorNodeUuid(groupId: string, stableId: string): Promise<string> {
  const hex = await sha256Hex(`graphiti-memory.mirror\n${groupId}\n${stableId}`);
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The mirror episode's name: content-free (a hash of the turn id), unique per turn, so the ledger writes it once. */
export async function mirrorEpisodeName(turnId: string): Promise<string> {
  return `mirror.turn.${(await sha256Hex(turnId)).slice(0, 24)}`;
}
