import type { CallRefusal, CallScreen, CallVerdict, Guard, GuardToolCall } from '../types.js';
import { isObject } from '../utils/read.js';

/**
 * Values kept per call of one response in the order the host reports them, and taken back in that order: the n-th value
 * kept for a call with a given id and name goes to the n-th call with that id and name. A provider that reuses one id
 * for every call (DeepSeek, GLM), or sends none, still gets each value matched to its own call, by position.
 */
export class CallQueue<Value> {
  readonly #queues = new Map<unknown, Map<unknown, { readonly values: Value[]; next: number }>>();

  /** Keeps a value for the next call with this id and name. */
  push(id: unknown, name: unknown, value: Value): void {
    let byName = this.#queues.get(id);
    if (byName === undefined) {
      byName = new Map();
      this.#queues.set(id, byName);
    }
    const queue = byName.get(name);
    if (queue === undefined) byName.set(name, { values: [value], next: 0 });
    else queue.values.push(value);
  }

  /** The oldest value not yet taken for a call with this id and name, or `undefined` when there is none. */
  take(id: unknown, name: unknown): Value | undefined {
    const queue = this.#queues.get(id)?.get(name);
    if (queue === undefined || queue.next >= queue.values.length) return undefined;
    return queue.values[queue.next++];
  }
}

/** A call the guard judged, with its verdict. */
interface Judged {
  readonly call: GuardToolCall;
  readonly verdict: CallVerdict;
}

/**
 * The calls of one model response, judged one at a time as the host asks about them, and matched back to the step
 * the host reports by id, name and position (see {@link CallQueue}), so reused or missing ids neither let a refused
 * call run nor record a call that ran as refused. Each judgement goes through one `guard.screen()`: K calls cost K
 * judgements. A host that asks twice about one call (the same object) gets the same answer, counted once.
 */
export class ResponseScreen {
  #screen: CallScreen | undefined;
  readonly #judged = new CallQueue<Judged>();
  // By the host's own object for the call, when it hands the same one again.
  readonly #byObject = new WeakMap<object, CallVerdict>();

  /**
   * What the guard says of the next call of the response, before it runs.
   * @param guard - the run's guard
   * @param call - the call the model asked for
   * @param id - what the host calls it by (its call id), whatever it is
   * @param source - the host's object for the call, to know it again when asked twice; `undefined` when it has none
   * @param onRefused - called when the call is refused, the first time it is judged
   */
  judge(guard: Guard, call: GuardToolCall, id: unknown, source: unknown, onRefused: (refusal: CallRefusal) => void): CallVerdict {
    // A WeakMap answers `undefined` for a key it cannot hold: a host without an object for the call is never known again.
    const known = this.#byObject.get(source as object);
    if (known !== undefined) return known;
    const verdict = (this.#screen ??= guard.screen()).judge(call);
    if (isObject(source)) this.#byObject.set(source, verdict);
    this.#judged.push(id, call.name, { call, verdict });
    if (verdict.block) onRefused(verdict);
    return verdict;
  }

  /**
   * A call of the recorded step, taken in response order: as reported, or `blocked` (without the host's result) when
   * it was refused. A call that was judged keeps the arguments it was judged with, whatever the host reports.
   */
  recorded(id: unknown, call: GuardToolCall): GuardToolCall {
    const judged = this.#judged.take(id, call.name);
    if (judged === undefined) return call;
    const { args } = judged.call;
    return judged.verdict.block ? { name: call.name, args, blocked: true } : { ...call, args };
  }
}

/** A call of a response known in full: what the guard judges, what the host calls it by, and the host's object for it. */
export interface ResponseCall {
  readonly call: GuardToolCall;
  readonly id: unknown;
  readonly source: unknown;
}

/**
 * The calls of one model response known in full before any of them runs (LangChain's AI message): all judged at once,
 * in response order, through one `guard.screen()` (K calls, K judgements), then each found when the host asks about
 * it: by the host's object for it, or else as the next call with its id and name, so reused or missing ids still find
 * their own call.
 */
export class KnownResponse {
  // By the host's own object for the call, when it hands the same one again; else by id and name, in order.
  readonly #byObject = new WeakMap<object, KnownCall>();
  readonly #byId = new CallQueue<KnownCall>();
  readonly #told = new Set<KnownCall>();

  /**
   * @param guard - the run's guard, after the steps before this response
   * @param calls - the response's calls, in order
   */
  constructor(guard: Guard, calls: readonly ResponseCall[]) {
    const screen = guard.screen();
    calls.forEach(({ call, id, source }, position) => {
      const known: KnownCall = { verdict: screen.judge(call), position };
      if (isObject(source) && !this.#byObject.has(source)) this.#byObject.set(source, known);
      this.#byId.push(id, call.name, known);
    });
  }

  /**
   * The verdict on a call the host asks about, its place in the response, and whether its refusal is told for the first
   * time; `undefined` for a call that is not one of the response's.
   */
  verdictOf(source: unknown, id: unknown, name: unknown): { readonly verdict: CallVerdict; readonly position: number; readonly first: boolean } | undefined {
    const known = this.#byObject.get(source as object) ?? this.#byId.take(id, name);
    if (known === undefined) return undefined;
    const first = !this.#told.has(known);
    this.#told.add(known);
    return { ...known, first };
  }
}

/** A call of a response known in full, judged: its verdict and its place in the response. */
interface KnownCall {
  readonly verdict: CallVerdict;
  readonly position: number;
}
