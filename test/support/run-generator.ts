/**
 * Seeded runs for the differential test: guard options with every detector on (tuned differently each run), and steps
 * drawn from small pools so repeats, cycles, stalls, finish reasons and budgets actually happen, mixed with the odd
 * values a real loop hands over (missing or unusable fields, throwing getters, Maps, bigints, long strings...).
 *
 * The same seed and run number always give the same run, whatever else is generated, so a failure names the run to
 * replay: `generateRun(seed, id)`.
 *
 */
import { canonicalize, type CustomDetector, type GuardOptions } from '../../src/index.js';

/** mulberry32: a small, fast PRNG whose sequence depends only on its seed. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let mixed = this.#state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  }

  /** An integer from `min` to `max`, both included. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `probability`. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One of the items. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined && items.length === 0) throw new Error('pick from an empty list');
    return item as T;
  }

  /** The items in a random order (a new array). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }
}

/** One thing the differential test does to both guards. */
export type RunEvent =
  /** Move the clock by `advanceMs`, then check `step` (any value: odd ones included). */
  | { readonly kind: 'check'; readonly step: unknown; readonly advanceMs: number }
  /** Move the clock, then `reset()` both guards. */
  | { readonly kind: 'reset'; readonly advanceMs: number }
  /** Compare `summary()` and `history` in the middle of the run. */
  | { readonly kind: 'summary' };

/** A generated run: how to build the guard's options, and what happens to it. */
export interface GeneratedRun {
  /** Names the run in failure messages, with what it takes to replay it. */
  readonly label: string;
  /** Clock reading when the guards are created. */
  readonly startMs: number;
  /** The clock reads `NaN` throughout: the wall-clock part of `maxDurationMs` must then count as 0. */
  readonly brokenClock: boolean;
  /**
   * Options for one guard. Custom rules may keep state, so each guard gets its own instances.
   * @param now - the run's clock
   * @param log - where a recording rule writes what it was shown (compared between the two guards)
   */
  readonly options: (now: () => number, log: string[]) => GuardOptions;
  readonly events: readonly RunEvent[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Values.

/** An object with the same entries in a random insertion order, nested objects too: equal canonically. */
function shuffled(random: Random, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => shuffled(random, item));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of random.shuffle(Object.entries(value))) copy[key] = shuffled(random, item);
  return copy;
}

const LONG_300 = `${'abcdefghij'.repeat(30)}!`;
const LONG_2100 = 'lorem ipsum '.repeat(175);
// Two long strings of the same length that differ in their last character: compared by hash in the guard.
const LONG_2100_OTHER = `${LONG_2100.slice(0, -1)}?`;
// A lone surrogate has no UTF-8 form, so the guard hashes this one over UTF-16 code units.
const LONE_SURROGATE_400 = `\ud800${'z'.repeat(400)}`;
/**
 * Records whose canonical form (about 44,000 characters) is far longer than any other result here: compared by length
 * and hash, and read by `stagnation` only at its two ends.
 */
const MANY_HITS = Array.from({ length: 800 }, (_, index) => ({ id: index, title: `Result number ${String(index)}`, score: index / 800 }));
/** A form of 36,001 characters without a letter or a digit: an empty answer however long. */
const EMPTY_LISTS = Array.from({ length: 12_000 }, () => []);

function nestedValue(depth: number): unknown {
  return depth === 0 ? { leaf: true } : { level: depth, child: nestedValue(depth - 1) };
}

/** Arguments; several pairs are canonically equal though built differently (key order, `-0`, `undefined` members). */
const ARGUMENTS: readonly ((random: Random) => unknown)[] = [
  () => ({ query: 'agent loop detection' }),
  (random) => shuffled(random, { path: '/src/index.ts', line: 3, options: { recursive: true, depth: 2 } }),
  (random) => shuffled(random, { filter: { b: [1, 2, { y: 1, x: 2 }], a: null }, page: 1 }),
  () => ({ when: new Date(Date.UTC(2026, 0, 1)) }),
  (random) => ({ lookup: new Map<string, unknown>(random.shuffle([['k', 1], ['j', { z: 2, a: 1 }]])) }),
  (random) => ({ tags: new Set(random.shuffle(['x', 'y', 'z'])) }),
  () => ({ id: 10n }),
  () => ({ id: 10 }),
  () => ({ ratio: Number.NaN }),
  () => ({ zero: -0 }),
  () => ({ zero: 0, dropped: undefined }),
  // eslint-disable-next-line no-sparse-arrays -- a hole is written `undefined`, unlike `null`.
  () => [1, , 3],
  () => [1, undefined, 3],
  () => undefined,
  () => 'plain string',
  () => 42,
  () => null,
  // Canonical forms of exactly 120 and 121 characters, either side of the preview cut.
  () => ({ text: 'p'.repeat(109) }),
  () => ({ text: 'q'.repeat(110) }),
  () => ({ text: LONG_300 }),
  () => ({ text: LONG_2100 }),
  () => ({ text: LONG_2100_OTHER }),
  () => ({ text: LONE_SURROGATE_400 }),
  () => nestedValue(10),
  () => ({ error: new RangeError('out of range') }),
];

const NAMES = ['search', 'read_file', 'fetch_url', 'write', 'a', 'b', '', 'tool "quoted"', 'ünïcødé ✓', 'line\nbreak\u001b[31m'];

/** Values that are not a string, so the call is ignored. */
const INVALID_NAMES: readonly unknown[] = [5, null, undefined, { name: 'nested' }, Symbol('tool'), true];

/** A result nothing else in the run returns (barring a 1 in 2^31 chance), still the same for the same seed. */
const freshValue = (random: Random): number => random.integer(0, 2 ** 31);

/**
 * Results: stable ones (among them failures that `stagnation` compares across calls, in text, JSON text and data,
 * some echoing words of the arguments, and empty answers) and fresh ones (something new every time, which is progress).
 */
const RESULTS: readonly ((random: Random) => unknown)[] = [
  () => 'ok',
  (random) => shuffled(random, { items: [], total: 0, next: null }),
  () => ({ items: [{ id: 1, title: 'First' }], total: 1 }),
  () => `${LONG_2100}result`,
  () => new Map([['rows', 3]]),
  () => 'No matches found for "loop" in /src',
  () => 'loop: command not found',
  () => '{"error":"index not found","ok":false}',
  () => '',
  () => '[]',
  (random) => ({ value: freshValue(random) }),
  (random) => ({ value: freshValue(random), payload: LONG_300 }),
];

/** How many of {@link RESULTS} come first and stay the same; the rest are fresh. */
const STABLE_RESULTS = 10;

/**
 * Long structured results: an answer, a failure (by its top-level key) and an empty answer. Rare (see
 * {@link makeTemplate}): the reference reads every result again at every check, and these are long.
 */
const LARGE_RESULTS: readonly (() => unknown)[] = [
  () => ({ hits: MANY_HITS, total: MANY_HITS.length }),
  () => ({ error: 'index not found', hits: MANY_HITS }),
  () => EMPTY_LISTS,
];

/**
 * Whether a generated step holds one of the long structured results, for the differential test's tally.
 * @param step - a step from a generated run, odd or not
 */
export function holdsLargeResult(step: unknown): boolean {
  try {
    const calls = (step as { toolCalls?: unknown } | undefined)?.toolCalls;
    if (!Array.isArray(calls)) return false;
    return calls.some((call: unknown) => {
      const result = (call as { result?: unknown } | null)?.result;
      return result === EMPTY_LISTS || (result as { hits?: unknown } | null | undefined)?.hits === MANY_HITS;
    });
  } catch {
    return false;
  }
}

/** Errors: `null` and `undefined` mean none; an Error compares by name and message, not by stack. */
const ERRORS: readonly (() => unknown)[] = [
  () => null,
  () => 'timeout',
  () => new Error('boom'),
  () => ({ code: 500, message: 'server error' }),
  () => new Error('No such file: agent loop detection'),
];

/**
 * Cost figures: with few decimals, and with 16 or 17 significant digits (a price worked out as tokens × rate), whose
 * exact decimal sums a double cannot always hold.
 */
const COSTS = [0.1, 0.2, 0.05, 0.01, 0.003, 0.25, 0.3, 0.07, 0, 1e-7, 0.125, 0.015, 1.5, 0.6666666666666666, 1200 * 0.0000025, 0.1 + 0.2];

/** Figures that are not usable (not finite, negative, not a number) and must be ignored. */
const UNUSABLE_FIGURES: readonly unknown[] = [Number.NaN, -5, Infinity, -Infinity, '12', null, true, -0.5];

// ---------------------------------------------------------------------------------------------------------------------
// Steps.

/** A call the run keeps making: a name, arguments, and how its results tend to come out. */
interface CallTemplate {
  readonly name: string;
  readonly args: (random: Random) => unknown;
  readonly results: 'stable' | 'fresh' | 'mixed' | 'failing' | 'none';
  readonly stableResult: (random: Random) => unknown;
}

interface RunContext {
  readonly random: Random;
  readonly templates: readonly CallTemplate[];
  readonly texts: readonly string[];
}

function makeTemplate(random: Random): CallTemplate {
  return {
    name: random.pick(NAMES),
    args: random.pick(ARGUMENTS),
    results: random.pick(['stable', 'stable', 'fresh', 'mixed', 'failing', 'none'] as const),
    stableResult: random.chance(0.06) ? random.pick(LARGE_RESULTS) : random.pick(RESULTS.slice(0, STABLE_RESULTS)),
  };
}

function makeCall(context: RunContext, template: CallTemplate): unknown {
  const { random } = context;
  const call: Record<string, unknown> = { name: template.name, args: template.args(random) };
  if (call.args === undefined && random.chance(0.5)) delete call.args;
  switch (template.results) {
    case 'stable':
      call.result = template.stableResult(random);
      break;
    case 'fresh':
      call.result = random.pick(RESULTS.slice(STABLE_RESULTS))(random);
      break;
    case 'mixed':
      call.result = random.pick(RESULTS)(random);
      if (random.chance(0.3)) call.error = random.pick(ERRORS)();
      break;
    case 'failing':
      call.error = random.pick(ERRORS)();
      if (random.chance(0.2)) call.result = undefined;
      break;
    case 'none':
      break;
  }
  if (random.chance(0.05)) call.error = null;
  // Refused before it ran, as a tool approval or hook refuses a call: results, if any, are ignored.
  if (random.chance(0.07)) call.blocked = random.chance(0.9) ? true : 'yes';
  return call;
}

/** An oddly built call: ignored (no string name) or read through unusual means. */
function makeOddCall(context: RunContext): unknown {
  const { random } = context;
  const template = random.pick(context.templates);
  switch (random.integer(0, 6)) {
    case 0:
      return { name: random.pick(INVALID_NAMES), args: template.args(random) };
    case 1:
      return random.pick([null, undefined, 7, 'search', [template.name]]);
    case 2:
      return {
        get name(): string {
          throw new Error('name getter');
        },
      };
    case 3:
      // Unreadable fields read as missing; the call itself is kept.
      return {
        name: template.name,
        get args(): unknown {
          throw new Error('args getter');
        },
        get result(): unknown {
          throw new Error('result getter');
        },
      };
    case 4:
      return Object.assign(Object.create(null) as object, makeCall(context, template));
    case 5:
      return Object.freeze(makeCall(context, template));
    default: {
      // Fields read through the prototype chain count like own ones.
      const base = makeCall(context, template) as Record<string, unknown>;
      return Object.create(base) as unknown;
    }
  }
}

/** A step's text: one of the run's phrases, spelt with varied case and whitespace, or none. */
function makeText(context: RunContext): unknown {
  const { random } = context;
  const roll = random.next();
  if (roll < 0.3) return undefined;
  if (roll < 0.35) return random.pick(['', '   ', '\n\t', '\u00a0\u3000\ufeff', 5, null]);
  const phrase = random.pick(context.texts);
  if (random.chance(0.5)) return phrase;
  const words = phrase.split(' ').map((word) => (random.chance(0.3) ? word.toUpperCase() : word));
  const spaces = [' ', '  ', '\t', '\n', ' \r\n ', '\u00a0', '\u2003'];
  return `${random.pick(['', ' ', '\n'])}${words.map((word) => word + random.pick(spaces)).join('')}`;
}

const CALL_FINISH_REASONS: readonly unknown[] = [
  'tool-calls',
  'TOOL_CALLS',
  ' tool_calls ',
  'other',
  'stop',
  'length',
  'end_turn',
  // Providers' own reasons: Gemini ends a step with function calls with STOP, Anthropic with tool_use.
  'STOP',
  'tool_use',
  'completed',
  'pause_turn',
  'MALFORMED_FUNCTION_CALL',
];
const TEXT_FINISH_REASONS: readonly unknown[] = [
  'stop',
  'STOP ',
  'end_turn',
  'END-TURN',
  'other',
  'unknown',
  '',
  '   ',
  'Content_Filter',
  'error',
  'length',
  'tool_calls',
  'MAX_TOKENS',
  'SAFETY',
  'stop_sequence',
  'COMPLETE',
  'interrupted',
  'FINISH_REASON_UNSPECIFIED',
  'constructor',
  '__proto__',
  7,
  null,
];

function makeUsage(random: Random): unknown {
  const roll = random.next();
  if (roll < 0.05) return random.pick([null, 'lots', 5, [], () => 1]);
  if (roll < 0.08) {
    return {
      inputTokens: 10,
      get costUsd(): number {
        throw new Error('cost getter');
      },
    };
  }
  const usage: Record<string, unknown> = {};
  const figure = (usual: () => number): unknown => (random.chance(0.06) ? random.pick(UNUSABLE_FIGURES) : usual());
  if (random.chance(0.85)) usage.inputTokens = figure(() => random.integer(0, 600));
  if (random.chance(0.85)) usage.outputTokens = figure(() => random.integer(0, 300));
  if (random.chance(0.25)) usage.totalTokens = figure(() => random.pick([random.integer(0, 900), 12.5, 0]));
  if (random.chance(0.6)) usage.costUsd = figure(() => random.pick(COSTS));
  // Huge figures make totals stop at the largest finite number; figures past 2^53 add beyond a double's integers.
  if (random.chance(0.01)) usage[random.pick(['inputTokens', 'costUsd'])] = random.pick([1e308, -0, 2 ** 53, 2 ** 53 + 2]);
  return usage;
}

function makeStep(context: RunContext, calls: readonly unknown[] | undefined): unknown {
  const { random } = context;
  const step: Record<string, unknown> = {};
  if (calls !== undefined) step.toolCalls = calls;
  const text = makeText(context);
  if (text !== undefined || random.chance(0.1)) step.text = text;
  // Mostly a reason that lets the run go on, so the detectors after finishReason get their say.
  const withCalls = calls !== undefined && calls.length > 0;
  const finishReason = random.chance(withCalls ? 0.25 : 0.2)
    ? random.pick(withCalls ? CALL_FINISH_REASONS : TEXT_FINISH_REASONS)
    : random.pick([undefined, 'tool-calls']);
  if (finishReason !== undefined || random.chance(0.1)) step.finishReason = finishReason;
  if (random.chance(0.85)) step.usage = makeUsage(random);
  if (random.chance(0.6)) {
    step.durationMs = random.chance(0.9) ? random.pick([random.integer(0, 400), 0.5, 12.5, 0.1]) : random.pick(UNUSABLE_FIGURES);
  }
  if (random.chance(0.3)) step.timestamp = random.pick([1_767_225_600_000 + random.integer(0, 1e6), 0, 1.5, -5, Number.NaN, Infinity, 'now']);
  return step;
}

/** A step that is not a plain object, or whose fields cannot all be read. */
function makeOddStep(context: RunContext): unknown {
  const { random } = context;
  const template = random.pick(context.templates);
  switch (random.integer(0, 9)) {
    case 0:
      return random.pick([null, undefined, 42, 'just text', true, [], [makeCall(context, template)]]);
    case 1:
      return Object.assign(() => 1, { text: 'a function with fields', toolCalls: [makeCall(context, template)] });
    case 2:
      return Object.assign(Object.create(null) as object, makeStep(context, [makeCall(context, template)]));
    case 3:
      return {
        get toolCalls(): unknown {
          throw new Error('toolCalls getter');
        },
        get text(): unknown {
          throw new Error('text getter');
        },
        finishReason: 'tool-calls',
      };
    case 4:
      // Ignored entries among real calls, and a hole.
      // eslint-disable-next-line no-sparse-arrays -- a hole in the tool-call array reads as `undefined`.
      return makeStep(context, [makeOddCall(context), , makeCall(context, template), makeOddCall(context)]);
    case 5:
      return makeStep(context, [makeOddCall(context), makeOddCall(context)]);
    case 6:
      return new Proxy(makeStep(context, new Proxy([makeCall(context, template)], {})) as object, {});
    case 7:
      return Object.freeze(makeStep(context, Object.freeze([makeCall(context, template)])));
    case 8:
      // Fields found on the prototype chain (as on a class instance) are read like own fields.
      return Object.create(Object.freeze({ toolCalls: [makeCall(context, template)], text: 'inherited' })) as unknown;
    default:
      return { ...(makeStep(context, []) as object), toolCalls: random.pick([null, 'search', { 0: makeCall(context, template), length: 1 }, []]) };
  }
}

/** A stretch of steps that follows one pattern. */
function makeSegment(context: RunContext): unknown[] {
  const { random, templates } = context;
  const one = (template: CallTemplate): unknown => makeStep(context, [makeCall(context, template)]);
  switch (random.pick(['repeat', 'repeat', 'cycle', 'cycle', 'parallel', 'stall', 'random', 'odd', 'quiet'] as const)) {
    case 'repeat': {
      const template = random.pick(templates);
      return Array.from({ length: random.integer(2, 7) }, () => one(template));
    }
    case 'cycle': {
      // Sometimes a call appears twice in the cycle (a a b), which is still a cycle.
      const cycle = Array.from({ length: random.integer(2, Math.min(5, templates.length + 1)) }, () => random.pick(templates));
      const steps: unknown[] = [];
      const perStep = random.chance(0.25) ? 2 : 1;
      const calls = Array.from({ length: random.integer(2, 4) }, () => cycle).flat();
      for (let index = 0; index < calls.length; index += perStep) {
        steps.push(makeStep(context, calls.slice(index, index + perStep).map((template) => makeCall(context, template))));
        if (random.chance(0.1)) steps.push(makeStep(context, undefined));
      }
      return steps;
    }
    case 'parallel':
      return Array.from({ length: random.integer(1, 3) }, () => {
        const calls = Array.from({ length: random.integer(2, 5) }, () => random.pick(templates));
        return makeStep(context, calls.map((template) => makeCall(context, template)));
      });
    case 'stall': {
      const text = random.pick(context.texts);
      return Array.from({ length: random.integer(2, 6) }, () => {
        const step = makeStep(context, random.chance(0.5) ? undefined : [makeCall(context, random.pick(templates))]) as Record<string, unknown>;
        step.text = random.chance(0.8) ? text : text.toUpperCase();
        return step;
      });
    }
    case 'random':
      return Array.from({ length: random.integer(1, 6) }, () =>
        random.chance(0.7) ? one(random.pick(templates)) : makeStep(context, random.chance(0.5) ? undefined : []),
      );
    case 'odd':
      return Array.from({ length: random.integer(1, 3) }, () => makeOddStep(context));
    case 'quiet':
      return Array.from({ length: random.integer(1, 3) }, () => makeStep(context, random.chance(0.5) ? undefined : []));
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Options.

const PHRASES = [
  'Let me search again.',
  'Checking the file once more',
  'I will try another approach',
  'Done.',
  'ok',
  // Normalised texts of exactly 120 and 121 characters.
  'w'.repeat(120),
  `${'v'.repeat(60)} ${'v'.repeat(60)}`,
  `Here is a long explanation. ${'The tool returned nothing useful, so I will call it again. '.repeat(7)}`,
  `Very long: ${`${'abcdefghijklmnopqrstuvwxyz'.repeat(4)} `.repeat(25)}`,
];

const TERMINAL_LISTS: readonly (readonly string[] | undefined)[] = [
  undefined,
  undefined,
  ['stop'],
  ['STOP', 'Length', 'content_filter'],
  ['stop', 'end_turn'],
  [],
  ['tool_calls', 'stop'],
  ['length', 'constructor', 'MAX_TOKENS'],
  ['  '],
];

const WARN_RATIOS = [0.1, 0.25, 0.3, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 1];

/** A budget limit with its warning ratio; warnings start at the exact decimal product of the two. */
function budgetLimit(random: Random, limit: number): number | { limit: number; warnAt?: number } {
  const warnAt = random.chance(0.5) ? random.pick(WARN_RATIOS) : undefined;
  if (warnAt === undefined && random.chance(0.5)) return limit;
  return warnAt === undefined ? { limit } : { limit, warnAt };
}

function makeBudget(random: Random): GuardOptions['budget'] {
  const roll = random.next();
  if (roll < 0.05) return false;
  if (roll < 0.1) return {};
  if (roll < 0.15) return undefined;
  const warnAt = random.chance(0.5) ? random.pick(WARN_RATIOS) : undefined;
  const budget: Record<string, unknown> = {};
  if (warnAt !== undefined) budget.warnAt = warnAt;
  const maybe = (option: string, limit: () => number): void => {
    if (random.chance(0.55)) budget[option] = budgetLimit(random, limit());
  };
  maybe('maxTotalTokens', () => random.pick([random.integer(1_000, 40_000), 15_000.5]));
  maybe('maxInputTokens', () => random.integer(1_000, 25_000));
  maybe('maxOutputTokens', () => random.integer(500, 12_000));
  maybe('maxCostUsd', () => random.pick([0.3, 0.5, 1, 2.5, 3, 0.35, 5, 8]));
  maybe('maxDurationMs', () => random.pick([random.integer(1_000, 40_000), 10_000.5]));
  return budget;
}

/** A setting that is sometimes left out, sometimes given as `undefined` (both mean the default). */
function maybeSetting<T>(random: Random, value: T): T | undefined {
  return random.chance(0.15) ? undefined : value;
}

function detectorSwitch<T>(random: Random, build: () => T): T | false | undefined {
  const roll = random.next();
  if (roll < 0.06) return false;
  if (roll < 0.1) return undefined;
  return build();
}

/** Custom rules, each built fresh for each guard (some keep state). */
const RULES: readonly ((log: string[]) => CustomDetector)[] = [
  // A chatty run: enough steps with text in what the rule is shown.
  () => (history) => {
    const steps = history.filter((step) => (step.text ?? '').trim() !== '').length;
    return steps >= 6 ? { stop: true, code: 'TOO_CHATTY', detail: `${String(steps)} steps with text.`, evidence: { steps } } : undefined;
  },
  // Too many calls: asks with an empty code and detail, which fall back to the defaults.
  () => (history) => (history.flatMap((step) => step.toolCalls ?? []).length > 12 ? { stop: true, code: '', detail: '' } : undefined),
  () => (_history, step) => ((step.toolCalls?.length ?? 0) >= 3 ? { stop: true } : undefined),
  // Every shape of answer a rule may give, in turn (those it may not are refused, see test/detectors/custom.test.ts).
  () => (history) => {
    const answers: unknown[] = [
      undefined,
      { stop: false },
      null,
      { stop: true, evidence: null },
      { stop: true, code: 5, detail: 7, evidence: [1, 'two'] },
      { stop: false, code: 'IGNORED' },
      { stop: true, code: 'NESTED', evidence: { nested: { ok: true } } },
    ];
    return answers[history.length % answers.length] as ReturnType<CustomDetector>;
  },
  // A rule with state of its own: every fifth time it is asked.
  () => {
    let calls = 0;
    return () => (++calls % 5 === 0 ? { stop: true, code: 'FIFTH', detail: `Call ${String(calls)}.` } : { stop: false });
  },
  // Records what it was shown, for comparison between the guards.
  (log) => (history, step) => {
    log.push(`${String(history.length)} ${String(history.at(-1) === step)} ${canonicalize(step)}`);
    return undefined;
  },
];

function makeOptions(random: Random): (now: () => number, log: string[]) => GuardOptions {
  const options: Record<string, unknown> = {
    maxSteps: random.pick([false, false, undefined, random.integer(3, 80), random.integer(20, 60)]),
    repeatedToolCall: detectorSwitch(random, () => ({
      threshold: maybeSetting(random, random.integer(2, 5)),
      requireIdenticalResults: maybeSetting(random, random.chance(0.4)),
      ignoreErrors: maybeSetting(random, random.chance(0.4)),
      warnBefore: maybeSetting(random, random.pick([false, 1, 2, 3] as const)),
    })),
    oscillation: detectorSwitch(random, () => ({
      maxPeriod: maybeSetting(random, random.integer(2, 5)),
      repeats: maybeSetting(random, random.integer(2, 4)),
      warnBefore: maybeSetting(random, random.pick([false, 1, 2] as const)),
    })),
    noProgress: detectorSwitch(random, () => ({
      threshold: maybeSetting(random, random.integer(2, 5)),
      warnBefore: maybeSetting(random, random.pick([false, 1, 2] as const)),
    })),
    stagnation: detectorSwitch(random, () => {
      // Small windows, so generated runs fill them.
      const window = random.integer(2, 8);
      return {
        window,
        maxNew: maybeSetting(random, random.integer(0, window - 1)),
        writeArgsLength: maybeSetting(random, random.pick([0, 20, 70])),
        warnBefore: maybeSetting(random, random.pick([false, 1, 2] as const)),
      };
    }),
    finishReason: detectorSwitch(random, () => ({
      terminal: random.pick(TERMINAL_LISTS),
      otherPolicy: random.pick([undefined, 'stop', 'continue', 'stop-if-text-only'] as const),
    })),
    budget: makeBudget(random),
    historyLimit: random.chance(0.35) ? random.integer(1, 8) : random.pick([false, undefined]),
  };
  // Leave a few settings out altogether rather than `undefined`.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined || random.chance(0.5)));
  const ruleCount = random.pick([0, 0, 1, 2, 3]);
  const rules = random.shuffle(RULES.map((_, index) => index)).slice(0, ruleCount);
  const single = ruleCount === 1 && random.chance(0.5);
  const emptyList = ruleCount === 0 && random.chance(0.2);

  return (now, log) => {
    const custom = rules.map((index) => (RULES[index] as (log: string[]) => CustomDetector)(log));
    const built: Record<string, unknown> = { ...given, now };
    if (custom.length > 0) built.custom = single ? custom[0] : custom;
    else if (emptyList) built.custom = [];
    return built;
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Runs.

/** A per-run seed: runs do not depend on each other, so one can be generated alone. */
function runSeed(seed: number, id: number): number {
  return Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(id + 1, 0xc2b2ae35);
}

/**
 * One run of the differential test.
 * @param seed - the test's fixed seed
 * @param id - the run's number
 */
export function generateRun(seed: number, id: number): GeneratedRun {
  const random = new Random(runSeed(seed, id));
  const options = makeOptions(random);
  const context: RunContext = {
    random,
    templates: Array.from({ length: random.integer(2, 5) }, () => makeTemplate(random)),
    texts: random.shuffle(PHRASES).slice(0, random.integer(1, 3)),
  };
  const long = random.chance(0.04);
  const length = long ? random.integer(110, 160) : random.integer(4, 60);
  const steps: unknown[] = [];
  while (steps.length < length) steps.push(...makeSegment(context));

  const brokenClock = random.chance(0.03);
  const backwards = random.chance(0.05);
  const advance = (): number =>
    backwards && random.chance(0.2) ? -random.integer(1, 500) : random.pick([0, 1, 17, 100, 250, random.integer(0, 400), 0.5, 1000]);
  const events: RunEvent[] = [];
  for (const step of steps) {
    if (random.chance(0.02)) events.push({ kind: 'reset', advanceMs: advance() });
    events.push({ kind: 'check', step, advanceMs: advance() });
    if (random.chance(0.08)) events.push({ kind: 'summary' });
  }
  return {
    label: `run ${String(id)} of seed ${String(seed)} (generateRun(${String(seed)}, ${String(id)}))`,
    startMs: random.pick([0, 1_767_225_600_000, 12.5]),
    brokenClock,
    options,
    events,
  };
}

/**
 * `count` runs of the differential test.
 * @param seed - the test's fixed seed
 * @param count - how many runs
 */
export function generateRuns(seed: number, count: number): GeneratedRun[] {
  return Array.from({ length: count }, (_, id) => generateRun(seed, id));
}

/** The steps of a run, for tests that want to look at them. */
export function stepsOf(run: GeneratedRun): unknown[] {
  return run.events.flatMap((event) => (event.kind === 'check' ? [event.step] : []));
}
