/**
 * Turn planning: `DefaultTurnPlanner.plan(turn)` gives the outbox entries of a finalized turn —
 * `[]` when the gate is closed; else the mapped, redacted messages for each configured scope
 * (`both` = session + workspace), the ownership context once per group when system messages are
 * on, and, with auto-promotion on, a promotion per memory directive of the user text (skipped when
 * the directive held a secret). Emits content-free `redacted`, `promoted` and `dropped` events.
 */
export {
  DefaultTurnPlanner,
  ingestScopes,
  OWNERSHIP_CONTEXT_STORAGE_KEY,
  ownershipMessageName,
  TurnPlanner,
} from './turn-planner.js';
