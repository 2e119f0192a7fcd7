/**
 * The gate: `DefaultMemoryGate.evaluate()` is open only when the settings are valid, memory is
 * enabled with an endpoint, the workspace is trusted and consent matches exactly that endpoint.
 * Otherwise `{ open: false, reason }` and nothing may be sent.
 */
export { DefaultMemoryGate, MemoryGate, type GateClosedReason, type GateDecision } from './memory-gate.js';
export {
  CONSENT_CATEGORIES,
  categoriesInUse,
  consentCovers,
  inertCategories,
  isConsentCategory,
  type ConsentCategory,
} from './consent-categories.js';
