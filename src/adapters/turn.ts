import type { CallRefusal, CallScreen, CallVerdict, Guard, GuardToolCall } from '../types.js';

/**
 * The calls of one model response as the guard judged them before they ran: the bookkeeping every adapter that
 * refuses calls shares. A call is judged once (a host that asks twice about one call gets the same answer), after the
 * calls of the response allowed before it, through the guard's screen, so K calls cost K judgements. When the
 * response's step is recorded, a refused call is marked `blocked`: what the host reports as its result is the refusal.
 */
export class Turn {
  // Made at the first call judged: the guard's screen of this response, which counts the calls it allowed as earlier.
  #screen: CallScreen | undefined;
  readonly #verdicts = new Map<unknown, CallVerdict>();

  /**
   * What the guard says of a call before it runs.
   * @param guard - the run's guard
   * @param call - the call the model asked for
   * @param key - what the host calls it by (its call id); `undefined` when it has none, then it is judged anew
   * @param onRefused - called when the call is refused, the first time it is judged
   */
  judge(guard: Guard, call: GuardToolCall, key: unknown, onRefused?: (refusal: CallRefusal) => void): CallVerdict {
    const known = key === undefined ? undefined : this.#verdicts.get(key);
    if (known !== undefined) return known;
    const verdict = (this.#screen ??= guard.screen()).judge(call);
    if (key !== undefined) this.#verdicts.set(key, verdict);
    if (verdict.block) onRefused?.(verdict);
    return verdict;
  }

  /** The refusal given to the call a host calls `key`, if it was refused. */
  refusal(key: unknown): CallRefusal | undefined {
    const verdict = this.#verdicts.get(key);
    return verdict?.block === true ? verdict : undefined;
  }

  /** A call of the recorded step: as reported, or `blocked` (without the host's result) when it was refused. */
  recorded(key: unknown, call: GuardToolCall): GuardToolCall {
    return this.refusal(key) === undefined ? call : { name: call.name, args: call.args, blocked: true };
  }
}
