// The port through which a host's own language model proposes loops from a session's digest (VS
// Code's `vscode.lm`, with `loops.proposeWithModel`). Optional: tools without a chat model (hooks,
// the harness) bind none and nothing is asked. The proposer gets the prompt memory-core wrote (the
// filtered digest, already redacted and neutralised, and the workspace's open loops) and returns the
// model's raw answer: memory-core parses it strictly and keeps what it proposes for review only.
import type { DigestWriteMiss } from '../digest/digest-writer.js';

export interface LoopProposalRequest {
  /** The whole instruction, transcript and open loops included (loop-proposal-format.ts). */
  readonly prompt: string;
  /** `capture.digestModel`: a model family or id; empty: the proposer's first available model. */
  readonly model: string;
  /** The answer is read up to this many characters: stop paying for more. */
  readonly maxAnswerChars: number;
}

export type LoopProposalAnswer =
  | { readonly ok: true; readonly answer: string; /** The model that answered (logged, never sent). */ readonly model?: string }
  | { readonly ok: false; readonly reason: DigestWriteMiss };

/** Asks the host's language model which loops a session left open or finished. */
export interface LoopProposer {
  /** Resolves when the model has answered or given up; `signal` aborts at the deadline. */
  propose(request: LoopProposalRequest, signal: AbortSignal): Promise<LoopProposalAnswer>;
}
export const LoopProposer = Symbol.for('graphiti-memory.LoopProposer');

/** How long a proposal waits for the model, and how many sessions wait to be asked at most. */
export interface LoopProposalOptions {
  readonly deadlineMs: number;
  readonly maxQueued: number;
}
export const LoopProposalOptions = Symbol.for('graphiti-memory.LoopProposalOptions');
export const DEFAULT_LOOP_PROPOSAL_OPTIONS: LoopProposalOptions = { deadlineMs: 30_000, maxQueued: 8 };
