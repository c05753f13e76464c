/**
 * The names the `/otel` subpath records under, and what goes into the attributes: which tool a verdict names, which
 * step it judged, and a detail without the model's data. Nothing here imports `@opentelemetry/api`.
 */
import { isRecord } from '../utils/validate.js';

/** The names of the span events the telemetry records, one per warning, refusal and stop. */
export const LOOPGUARD_EVENTS = Object.freeze({
  warning: 'agent_loopguard.warning',
  refusal: 'agent_loopguard.refusal',
  stop: 'agent_loopguard.stop',
} as const);

/** The attribute names of those events (and, for `error.type`, of the span a fault stop marks as failed). */
export const LOOPGUARD_ATTRIBUTES = Object.freeze({
  code: 'agent_loopguard.code',
  reason: 'agent_loopguard.reason',
  detail: 'agent_loopguard.detail',
  fault: 'agent_loopguard.fault',
  stepIndex: 'agent_loopguard.step.index',
  toolName: 'gen_ai.tool.name',
  evidence: 'agent_loopguard.evidence',
  errorType: 'error.type',
} as const);

/** The counters the telemetry adds to when given a `meter`, each with the `code` and `reason` attributes. */
export const LOOPGUARD_METRICS = Object.freeze({
  warnings: 'agent_loopguard.warnings',
  refusals: 'agent_loopguard.refusals',
  stops: 'agent_loopguard.stops',
} as const);

/**
 * Every preview of the model's data an evidence holds (`argsPreview`, `textPreview`, `shapePreview`, cycle entries).
 * Each value is read once, so a hand-made evidence that holds itself ends.
 */
function* previews(evidence: unknown, seen: Set<unknown>): Generator<string> {
  if (seen.has(evidence)) return;
  seen.add(evidence);
  if (Array.isArray(evidence)) {
    for (const item of evidence) {
      // An oscillation's cycle entry is `name(argsPreview)`: the name is kept, the arguments are not.
      if (typeof item === 'string') {
        const open = item.indexOf('(');
        if (open >= 0) yield item.slice(open + 1, -1);
      } else yield* previews(item, seen);
    }
  } else if (isRecord(evidence)) {
    for (const [key, value] of Object.entries(evidence)) {
      if (typeof value === 'string' && key.endsWith('Preview')) yield value;
      else yield* previews(value, seen);
    }
  }
}

/** A detail with the evidence's previews of arguments, text and answers replaced by `…`. */
export function withoutPreviews(detail: string, evidence: unknown): string {
  // Longest first, so a preview that is part of another is not replaced inside it and leave the rest behind. An empty
  // preview is skipped: splitting on it would put `…` between every character.
  const found = [...previews(evidence, new Set())].filter((preview) => preview !== '').sort((a, b) => b.length - a.length);
  return found.reduce((text, preview) => text.split(preview).join('…'), detail);
}

/** The tool a verdict's evidence names, if one: its `tool`. A cycle may name several tools, so it names none. */
export function toolOf(evidence: unknown): string | undefined {
  if (!isRecord(evidence)) return undefined;
  if (typeof evidence.tool === 'string') return evidence.tool;
  return undefined;
}

/** A step index from what an adapter passes next to a verdict: a number, or the steps so far (the last one's index). */
export function stepIndexOf(stepsOrIndex: unknown): number | undefined {
  if (typeof stepsOrIndex === 'number' && Number.isInteger(stepsOrIndex) && stepsOrIndex >= 0) return stepsOrIndex;
  if (Array.isArray(stepsOrIndex) && stepsOrIndex.length > 0) return stepsOrIndex.length - 1;
  return undefined;
}

/** A tool name from the call an adapter hands `onBlock`, whatever its framework calls the field. */
export function callName(call: unknown): string | undefined {
  if (!isRecord(call)) return undefined;
  for (const key of ['toolName', 'name', 'tool_name']) {
    const value = call[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}
