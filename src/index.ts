export { canonicalize, stableHash } from './canonical/canonicalize.js';
export type {
  BudgetLimit,
  BudgetMetric,
  BudgetOptions,
  BlockReason,
  BudgetWarning,
  WarnBefore,
  CallRefusal,
  CallScreen,
  CallVerdict,
  ContinueVerdict,
  CustomDetector,
  CustomStop,
  FinishReasonOptions,
  Guard,
  GuardOptions,
  GuardSnapshot,
  GuardStep,
  GuardSummary,
  GuardToolCall,
  GuardUsage,
  GuardWarning,
  InputLimitWarning,
  InputShapeWarning,
  JsonValue,
  LoopReason,
  LoopWarning,
  NoProgressOptions,
  OscillationOptions,
  OtherPolicy,
  RepeatedToolCallOptions,
  RestoreOptions,
  StagnationOptions,
  StopCodes,
  StopEvidence,
  StopReason,
  StopVerdict,
  StopVerdictFor,
  ToolIdentity,
  Verdict,
} from './types.js';
export { createGuard } from './guard/create-guard.js';
export { DEFAULT_OPTIONS } from './detectors/defaults.js';
export { explain, isFault, loopMessage, loopWarnings } from './guard/verdict.js';
export { runAgentLoop } from './adapters/run-agent-loop.js';
export type { AbortSignalLike, AgentLoopContext, AgentLoopResult, AgentLoopStep, RunAgentLoopOptions } from './adapters/run-agent-loop.js';
export { toGuardStep } from './adapters/to-guard-step.js';
export type {
  AiSdkContentPartLike,
  AiSdkCostFunction,
  AiSdkStepLike,
  AiSdkToolCallLike,
  AiSdkToolResultLike,
  AiSdkUsageLike,
  ToGuardStepOptions,
} from './adapters/to-guard-step.js';
export { toAgentSettings } from './adapters/to-agent-settings.js';
export type {
  AgentSettingsOptions,
  AiSdkApprovalToolCall,
  AiSdkNudgeMessage,
  AiSdkPrepareStepInput,
  GuardAgentSettings,
} from './adapters/to-agent-settings.js';
export { toStopWhen } from './adapters/to-stop-when.js';
export type { GuardStopCondition, ToStopWhenOptions } from './adapters/to-stop-when.js';
export { withGuard } from './adapters/with-guard.js';
export type { GuardedSteps } from './adapters/with-guard.js';
