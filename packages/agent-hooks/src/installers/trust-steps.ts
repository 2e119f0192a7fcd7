// The trust steps descriptors name (`trust.step`), run by the installers only: a hook run never
// loads them (they edit the assistant's own configuration).
import type { TrustStep, TrustStepName } from '../assistants/assistant-descriptor.js';
import { codexTrustStep } from '../assistants/codex-hook-trust.js';
import { isOurHookCommand } from './hook-command.js';

const STEPS: Readonly<Record<TrustStepName, () => TrustStep>> = {
  'codex-hooks-state': () => codexTrustStep(isOurHookCommand),
};

export function trustStep(name: TrustStepName): TrustStep {
  return STEPS[name]();
}
