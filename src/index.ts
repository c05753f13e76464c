export { canonicalize } from './canonicalize.js';
export { stableHash } from './stable-hash.js';
export type {
  BudgetLimit,
  BudgetMetric,
  BudgetOptions,
  ContinueVerdict,
  CustomDetector,
  CustomStop,
  FinishReasonOptions,
  Guard,
  GuardOptions,
  GuardStep,
  GuardSummary,
  GuardToolCall,
  GuardUsage,
  GuardWarning,
  JsonValue,
  NoProgressOptions,
  OscillationOptions,
  OtherPolicy,
  RepeatedToolCallOptions,
  StopCodes,
  StopEvidence,
  StopReason,
  StopVerdict,
  StopVerdictFor,
  Verdict,
} from './types.js';
export { createGuard } from './create-guard.js';
export { DEFAULT_OPTIONS } from './default-options.js';
export { explain } from './explain.js';
export { isFault } from './is-fault.js';
