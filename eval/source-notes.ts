/**
 * What is known about each source of the trace set (from its README): the agent, the task, where the runs come from
 * and their licence. Metadata only, no trace content.
 */

/** A source's description and licence. */
export interface SourceNote {
  readonly agent: string;
  /** `MIT` (the runs may be copied, with their notice), or `none` (measure only, never copy). */
  readonly licence: 'MIT' | 'none';
}

const NOTES: readonly (readonly [RegExp, SourceNote])[] = [
  [
    /^mini-swe-agent-gemini-3-pro$/,
    { agent: 'mini-swe-agent 1.15, Gemini 3 Pro, SWE-bench Verified (step limit 250, $3)', licence: 'MIT' },
  ],
  [/^swe-agent-lm-32b$/, { agent: 'SWE-agent 1.0.1, SWE-agent-LM-32B, SWE-bench Verified (75 calls)', licence: 'none' }],
  [/^tau-bench-airline-gpt-4o$/, { agent: 'tau-bench airline, GPT-4o, one run per user turn', licence: 'MIT' }],
  [/^tau2-bench-leaderboard$/, { agent: 'tau2-bench leaderboard, ten agents, one run per user turn', licence: 'MIT' }],
  [/^msb-java-swe-agent\+(.+)$/, { agent: 'SWE-agent 0.x, Multi-SWE-bench Java ($ limit)', licence: 'none' }],
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
