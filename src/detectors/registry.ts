import { budget } from './budget.js';
import { custom } from './custom.js';
import type { Detector } from './detector.js';
import { finishReason } from './finish-reason.js';
import { maxSteps } from './max-steps.js';
import { noProgress } from './no-progress.js';
import { oscillation } from './oscillation.js';
import { repeatedToolCall } from './repeated-tool-call.js';
import { stagnation } from './stagnation.js';

/**
 * Every detector, in priority order: when several stop on one step, the earliest here wins. The one list: options,
 * their validation, summaries, snapshots, their restore and the options a snapshot is tied to all come from it.
 */
export const DETECTORS: readonly Detector[] = [finishReason, budget, maxSteps, repeatedToolCall, oscillation, noProgress, stagnation, custom] as readonly Detector[];
