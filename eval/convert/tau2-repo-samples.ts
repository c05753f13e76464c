/**
 * `npx tsx eval/convert/tau2-repo-samples.ts --simulations FILE --sft FILE --out DIR`: converts two files of the
 * sierra-research/tau2-bench repository (MIT; commit 65bc800e2a6c2c9aeba5e71e3bdeef93098a50c7) into the guard's trace
 * format, one `.jsonl.gz` per source, written to DIR (a folder outside this repository: the runs are not committed):
 *
 * - `--simulations`: `data/exp/test_run_1/gpt-4.1-2025-04-14_telecom_no-user_gpt-4.1-2025-04-14_4trials_5tasks.json`,
 *   20 telecom simulations of GPT-4.1 in tau2's no-user mode (the agent works the phone's tools itself). One run per
 *   simulation; `resolved` = reward 1; `exitStatus` = its termination reason. Writes `tau2-telecom-no-user.jsonl.gz`.
 * - `--sft`: `data/tau2/sft-v1-small/sft-v1-small-dataset/sft-v1-small.json`, the 61 conversations (airline, retail,
 *   telecom) of tau2's small fine-tuning sample, split into one run per user turn as the tau2 leaderboard source is:
 *   the agent's tool steps up to its text reply. `resolved` = the conversation's reward was 1; no termination reason
 *   is recorded. Writes `tau2-sft-small.jsonl.gz`.
 *
 * Tool output longer than 3,000 characters is shortened as the rest of the trace set is: its first 2,500 and last 400
 * characters around `...[<length> chars, sha1 <16 hex>]...`, so two outputs compare equal exactly when the originals
 * did. Nothing here is imported by the library or its tests.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

/** One step as the guard reads it. */
interface Step {
  text?: string;
  toolCalls: { name: string; args: unknown; result?: string }[];
  finishReason: 'tool-calls' | 'stop';
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number };
}

interface Run {
  readonly id: string;
  readonly source: string;
  readonly conversation?: string;
  readonly model: string;
  readonly domain: string;
  readonly outcome: { readonly resolved: boolean; readonly exitStatus: string | null };
  readonly limits: Readonly<Record<string, number | null>>;
  readonly steps: Step[];
}

const COMMIT = '65bc800e2a6c2c9aeba5e71e3bdeef93098a50c7';

/** The trace set's shortening of long tool output. */
export function shorten(text: string): string {
  if (text.length <= 3000) return text;
  const sha1 = createHash('sha1').update(text, 'utf8').digest('hex').slice(0, 16);
  return `${text.slice(0, 2500)}\n...[${String(text.length)} chars, sha1 ${sha1}]...\n${text.slice(-400)}`;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A tool call's arguments: an object as given, a JSON string parsed (left as the string when it is not JSON). */
function argumentsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A step from an assistant message, its calls answered by the tool messages that follow it (matched by call id). */
function stepOf(message: Record<string, unknown>, results: ReadonlyMap<string, string>, usage?: Step['usage']): Step {
  const calls = list(message.tool_calls).map((raw) => {
    const call = record(raw);
    const fn = record(call.function);
    const name = text(call.name) || text(fn.name);
    const result = results.get(text(call.id));
    return { name, args: argumentsOf(call.arguments ?? fn.arguments), ...(result === undefined ? {} : { result: shorten(result) }) };
  });
  const content = text(message.content);
  const step: Step = { toolCalls: calls, finishReason: calls.length > 0 ? 'tool-calls' : 'stop' };
  if (content !== '' && content !== 'None') step.text = content;
  if (usage !== undefined) step.usage = usage;
  return step;
}

/** Tool results by the id of the call they answer. */
function resultsOf(messages: readonly Record<string, unknown>[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const id = text(message.id) || text(message.tool_call_id);
    results.set(id, typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? null));
  }
  return results;
}

/** tau2's no-user simulations: one run each, with usage and cost per step. */
function convertSimulations(file: string): Run[] {
  const data = record(JSON.parse(readFileSync(file, 'utf8')));
  const info = record(data.info);
  const agent = record(info.agent_info);
  const model = text(agent.llm) || 'gpt-4.1-2025-04-14';
  return list(data.simulations).map((raw) => {
    const simulation = record(raw);
    const messages = list(simulation.messages).map(record);
    const results = resultsOf(messages);
    const steps = messages
      .filter((message) => message.role === 'assistant')
      .map((message) => {
        const usage = record(message.usage);
        const cost = message.cost;
        return stepOf(message, results, {
          inputTokens: Number(usage.prompt_tokens ?? 0),
          outputTokens: Number(usage.completion_tokens ?? 0),
          ...(typeof cost === 'number' ? { costUsd: cost } : {}),
        });
      });
    const reward = record(simulation.reward_info).reward;
    return {
      id: `tau2-telecom-no-user/${text(simulation.task_id)}/trial${String(simulation.trial)}`,
      source: 'tau2-telecom-no-user',
      model,
      domain: 'telecom',
      outcome: { resolved: reward === 1, exitStatus: text(simulation.termination_reason) || null },
      limits: { steps: typeof info.max_steps === 'number' ? info.max_steps : null, errors: typeof info.max_errors === 'number' ? info.max_errors : null },
      steps,
    };
  });
}

/** The domain a fine-tuning conversation belongs to, from its system prompt. */
function domainOf(messages: readonly Record<string, unknown>[]): string {
  const system = text(messages.find((message) => message.role === 'system')?.content);
  for (const domain of ['airline', 'retail', 'telecom']) if (new RegExp(`# ${domain}`, 'i').test(system)) return domain;
  return 'unknown';
}

/** tau2's fine-tuning sample: one run per user turn (and one for the greeting before the first). */
function convertSft(file: string): Run[] {
  const splits = record(record(JSON.parse(readFileSync(file, 'utf8'))).splits);
  const runs: Run[] = [];
  for (const [split, conversations] of Object.entries(splits)) {
    for (const raw of list(conversations)) {
      const conversation = record(raw);
      const messages = list(conversation.messages).map(record);
      const results = resultsOf(messages);
      const domain = domainOf(messages);
      const name = `tau2-sft-small/${split}/${text(conversation.simulation_id)}`;
      const resolved = conversation.reward === 1;
      let turn: Step[] = [];
      let turns = 0;
      const close = (): void => {
        if (turn.length === 0) return;
        runs.push({
          id: `${name}#${String(turns)}`,
          source: 'tau2-sft-small',
          conversation: name,
          model: 'tau2 sft-v1-small',
          domain,
          outcome: { resolved, exitStatus: null },
          limits: {},
          steps: turn,
        });
        turns++;
        turn = [];
      };
      for (const message of messages) {
        if (message.role === 'user') close();
        if (message.role === 'assistant') turn.push(stepOf(message, results));
      }
      close();
    }
  }
  return runs;
}

function write(out: string, source: string, runs: readonly Run[]): void {
  const path = join(out, `${source}.jsonl.gz`);
  writeFileSync(path, gzipSync(runs.map((run) => JSON.stringify(run)).join('\n') + '\n'));
  console.log(`${path}: ${String(runs.length)} runs, ${String(runs.filter((run) => run.outcome.resolved).length)} resolved (tau2-bench @ ${COMMIT})`);
}

const { values } = parseArgs({ options: { simulations: { type: 'string' }, sft: { type: 'string' }, out: { type: 'string' } } });
if (values.out === undefined || (values.simulations === undefined && values.sft === undefined)) {
  console.error('usage: tsx eval/convert/tau2-repo-samples.ts [--simulations FILE] [--sft FILE] --out DIR');
  process.exit(2);
}
mkdirSync(values.out, { recursive: true });
if (values.simulations !== undefined) write(values.out, 'tau2-telecom-no-user', convertSimulations(values.simulations));
if (values.sft !== undefined) write(values.out, 'tau2-sft-small', convertSft(values.sft));
