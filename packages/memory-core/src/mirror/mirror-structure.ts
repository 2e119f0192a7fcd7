// A record's graph: the nodes and edges seed 001 names — Conversation→Turn (HAS_TURN),
// Turn→ToolCall (USES_TOOL, seed 000's relation), ToolCall→ToolResult (RETURNED),
// Turn→Reference (REFERENCES, ATTACHES), Turn→ReplayParent (REPLAYS) — each node with the uuid its
// stable id gives in this group. Facts are deterministic text, so writing one again is the same
// edge (graphiti-core reuses an edge whose ends and fact exist verbatim).
import type { MirrorEdge, MirrorNode, MirrorStructure } from '../ports.js';
import { mirrorNodeUuid } from './mirror-ids.js';
import type { MirrorRecord } from './mirror-record.js';

export async function mirrorStructure(record: MirrorRecord, groupId: string): Promise<MirrorStructure> {
  const wanted: Array<{ id: string; summary: string }> = [];
  const edges: MirrorEdge[] = [];
  const turn = record.turn.id;
  const conversation = record.conversation;
  wanted.push({ id: conversation.id, summary: `${conversation.tool} conversation${conversation.title === null ? '' : `: ${conversation.title}`}` });
  wanted.push({ id: turn, summary: `Turn at ${record.turn.at}` });
  edges.push({ from: conversation.id, to: turn, name: 'HAS_TURN', fact: `${conversation.id} has turn ${turn}` });
  for (const call of record.tool_calls) {
    wanted.push({ id: call.id, summary: call.arguments });
    edges.push({ from: turn, to: call.id, name: 'USES_TOOL', fact: `${turn} called ${call.arguments}` });
    if (call.result !== null) {
      wanted.push({ id: call.result.id, summary: `${call.result.status}, ${call.result.size} characters, ${call.result.hash}` });
      edges.push({ from: call.id, to: call.result.id, name: 'RETURNED', fact: `${call.id} returned ${call.result.status} (${call.result.size} characters, ${call.result.hash})` });
    }
  }
  for (const reference of record.references) {
    wanted.push({ id: reference.id, summary: reference.hash === null ? reference.uri : `${reference.uri} ${reference.hash}` });
    const name = reference.kind === 'attachment' ? 'ATTACHES' : 'REFERENCES';
    const verb = reference.kind === 'attachment' ? 'attached' : 'referenced';
    edges.push({ from: turn, to: reference.id, name, fact: `${turn} ${verb} ${reference.uri}${reference.hash === null ? '' : ` (${reference.hash})`}` });
  }
  if (record.turn.replay_parent !== null) {
    wanted.push({ id: record.turn.replay_parent, summary: 'Turn replayed from' });
    edges.push({ from: turn, to: record.turn.replay_parent, name: 'REPLAYS', fact: `${turn} replays ${record.turn.replay_parent}` });
  }
  const nodes: MirrorNode[] = [];
  for (const node of wanted) {
    if (nodes.some((known) => known.id === node.id)) continue;
    nodes.push({ ...node, uuid: await mirrorNodeUuid(groupId, node.id) });
  }
  return { nodes, edges };
}
