/**
 * The `tools` option: per tool name, what makes two of its calls the same call, or that its calls are exempt from the
 * loop detectors. Validated once; read for every call in `readStep`.
 */
import { stableHash } from '../canonical/canonicalize.js';
import { expectObject, listOption, optionError } from '../utils/validate.js';

/** One tool's identity after validation. */
export interface ToolRule {
  readonly key: ((args: unknown) => unknown) | undefined;
  readonly keyFields: readonly string[] | undefined;
  readonly exempt: boolean;
}

/** The tools the option names, by exact name. Empty when the option is left out. */
export type ToolRules = ReadonlyMap<string, ToolRule>;

/** Most tools the option may name. */
export const MAX_TOOLS = 10_000;
/** Most fields one tool's `keyFields` may name. */
export const MAX_KEY_FIELDS = 1_000;

/** No tool named: every call compared by its name and whole arguments. */
export const NO_TOOLS: ToolRules = new Map();

/** How an option path names a tool: `tools.search`, or `tools["read file"]` when the name is not an identifier. */
export function toolPath(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `tools.${name}` : `tools[${JSON.stringify(name)}]`;
}

function resolveRule(path: string, value: unknown): ToolRule {
  const options = expectObject(path, value, ['key', 'keyFields', 'exempt']);
  const { key, keyFields, exempt } = options;
  if (key !== undefined && typeof key !== 'function') optionError(`${path}.key`, 'a function of the arguments', key);
  let fields: string[] | undefined;
  if (keyFields !== undefined) {
    const items = listOption(`${path}.keyFields`, keyFields, MAX_KEY_FIELDS, 'an array of field names');
    fields = items.map((field, index) => {
      if (typeof field !== 'string') optionError(`${path}.keyFields[${String(index)}]`, 'a string', field);
      return field;
    });
  }
  if (exempt !== undefined && typeof exempt !== 'boolean') optionError(`${path}.exempt`, 'true or false', exempt);
  const given = [key, keyFields, exempt === true ? true : undefined].filter((item) => item !== undefined).length;
  if (given > 1) {
    throw new TypeError(`agent-loopguard: option "${path}" must give one of key, keyFields or exempt: true, not more.`);
  }
  return { key: key as ToolRule['key'], keyFields: fields === undefined ? undefined : Object.freeze(fields), exempt: exempt === true };
}

/**
 * Validates the `tools` option: an object whose own keys are tool names, each with `{ key }`, `{ keyFields }` or
 * `{ exempt }`. Only own properties are read, so a polluted `Object.prototype` adds no tool.
 * @throws TypeError naming the option path when a value does not fit
 */
export function resolveTools(value: unknown): ToolRules {
  if (value === undefined) return NO_TOOLS;
  let names: string[] | undefined;
  try {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) names = Object.keys(value);
  } catch {
    // A revoked proxy: reported below as not an object.
  }
  if (names === undefined) optionError('tools', 'an object whose keys are tool names', value);
  if (names.length > MAX_TOOLS) optionError('tools', `an object of at most ${String(MAX_TOOLS)} tools`, value);
  const rules = new Map<string, ToolRule>();
  for (const name of names) {
    const path = toolPath(name);
    let rule: unknown;
    try {
      rule = (value as Record<string, unknown>)[name];
    } catch {
      throw new TypeError(`agent-loopguard: option "${path}" could not be read: reading it threw.`);
    }
    rules.set(name, resolveRule(path, rule));
  }
  return rules;
}

/**
 * What a snapshot is tied to, per tool: its `keyFields` and `exempt`, and whether it has a `key` function. Functions
 * cannot be compared, so a snapshot restores under any key function of the same tool (as custom rules, which it ties
 * to their number): pass the same one.
 */
export function toolsFingerprint(rules: ToolRules): [string, string][] {
  return [...rules].map(([name, { key, keyFields, exempt }]) => [toolPath(name), stableHash({ key: key === undefined ? null : 'function', keyFields: keyFields ?? null, exempt }).slice(0, 12)]);
}

/** A plain object, not an array: the only arguments `keyFields` picks from. */
function isRecord(value: unknown): value is object {
  try {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * What a call is compared by under its tool's rule: the key function's value, the listed fields, or the arguments
 * themselves (no rule, arguments that are not an object for `keyFields`, or a key function that threw).
 * @returns the value, and whether it is a key rather than the arguments
 */
export function identityOf(rule: ToolRule | undefined, args: unknown, read: (target: unknown, key: string) => unknown): { readonly value: unknown; readonly keyed: boolean } {
  if (rule?.key !== undefined) {
    try {
      return { value: rule.key(args), keyed: true };
    } catch {
      return { value: args, keyed: false };
    }
  }
  if (rule?.keyFields === undefined || !isRecord(args)) return { value: args, keyed: false };
  const picked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const field of rule.keyFields) picked[field] = read(args, field);
  return { value: picked, keyed: true };
}
