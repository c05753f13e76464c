/**
 * What is known about each source of the trace set (from its README): the agent, the task, where the runs come from
 * and their licence. Metadata only, no trace content.
 */

/**
 * Which part of the development data a source belongs to: the first split (the nine sources the detectors were first
 * tuned on), the three sources added later to see how the detectors transfer, or one this project converted itself
 * (eval/convert).
 */
export type SourceGroup = 'first split' | 'new sources' | 'converted here';

/** A source's description and licence. */
export interface SourceNote {
  readonly agent: string;
  /** `MIT` (the runs may be copied, with their notice), or `none` (measure only, never copy). */
  readonly licence: 'MIT' | 'none';
  readonly group: SourceGroup;
}

const NOTES: readonly (readonly [RegExp, SourceNote])[] = [
  [
    /^mini-swe-agent-gemini-3-pro$/,
    { agent: 'mini-swe-agent 1.15, Gemini 3 Pro, SWE-bench Verified (step limit 250, $3)', licence: 'MIT', group: 'first split' },
  ],
  [/^swe-agent-lm-32b$/, { agent: 'SWE-agent 1.0.1, SWE-agent-LM-32B, SWE-bench Verified (75 calls)', licence: 'none', group: 'first split' }],
  [/^tau-bench-airline-gpt-4o$/, { agent: 'tau-bench airline, GPT-4o, one run per user turn', licence: 'MIT', group: 'first split' }],
  [/^tau2-bench-leaderboard$/, { agent: 'tau2-bench leaderboard, ten agents, one run per user turn', licence: 'MIT', group: 'first split' }],
  [/^msb-java-swe-agent\+(.+)$/, { agent: 'SWE-agent 0.x, Multi-SWE-bench Java ($ limit)', licence: 'none', group: 'first split' }],
  [/^repolaunch-setup$/, { agent: 'RepoLaunch environment setup, GPT-5.2 and GPT-5.2-codex, nine languages (60-90 turns)', licence: 'none', group: 'new sources' }],
  [/^coder-swe-bench-lite$/, { agent: 'CodeR (SWE-agent derivative), GPT-4, SWE-bench Lite', licence: 'none', group: 'new sources' }],
  [/^tb-mini-swe-agent-claude-4-sonnet$/, { agent: 'mini-swe-agent, Claude Sonnet 4, Terminal-Bench core 0.1.1', licence: 'none', group: 'new sources' }],
  [/^tau2-telecom-no-user$/, { agent: 'tau2-bench telecom, GPT-4.1, no-user mode, one run per simulation (eval/convert)', licence: 'MIT', group: 'converted here' }],
  [/^tau2-sft-small$/, { agent: "tau2-bench's small fine-tuning sample, one run per user turn (eval/convert)", licence: 'MIT', group: 'converted here' }],
];

/**
 * The note for a source, or `undefined` for one the trace set does not describe.
 * @param source - the file name without its ending
 */
export function noteFor(source: string): SourceNote | undefined {
  for (const [pattern, note] of NOTES) {
    const match = pattern.exec(source);
    if (match === null) continue;
    const model = match[1];
    return model === undefined ? note : { ...note, agent: note.agent.replace('SWE-agent 0.x,', `SWE-agent 0.x, ${model},`) };
  }
  return undefined;
}
