/**
 * A reference form of a JSON value: keys sorted, `-0` written as `0` (JSON has one zero). Two JSON values are
 * equal as JSON exactly when their reference forms are equal.
 */
export function jsonReferenceForm(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonReferenceForm).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${jsonReferenceForm(record[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The JSON nodes of a value with a function that replaces each, so a test can change exactly one. */
function nodesOf(value: unknown, replace: (next: unknown) => unknown, found: [unknown, (next: unknown) => unknown][]): void {
  found.push([value, replace]);
  if (Array.isArray(value)) {
    const items = value as unknown[];
    items.forEach((item, index) => {
      nodesOf(item, (next) => replace(items.map((old, at) => (at === index ? next : old))), found);
    });
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      nodesOf(record[key], (next) => replace(withEntry(record, key, next)), found);
    }
  }
}

/** A copy of a record with one entry set; `__proto__` stays an own key. */
function withEntry(record: Record<string, unknown>, key: string, next: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(record)) {
    Object.defineProperty(copy, name, { value: name === key ? next : item, enumerable: true, writable: true, configurable: true });
  }
  if (!Object.hasOwn(copy, key)) Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Values a serialiser might confuse with `node`: the same text in another type, a neighbour, a wrapper. */
function lookalikes(node: unknown): unknown[] {
  if (typeof node === 'number') return [String(node), node + 1, -node, null, [node], { 0: node }, node === 0 ? false : true];
  if (typeof node === 'string') {
    const asNumber = Number(node);
    return [`${node}a`, node.slice(1), node.toUpperCase(), Number.isNaN(asNumber) ? null : asNumber, [node], { [node]: null }, node === '' ? null : ''];
  }
  if (typeof node === 'boolean') return [!node, String(node), Number(node), null];
  if (node === null) return ['null', 0, false, {}, [], ''];
  if (Array.isArray(node)) {
    const items = node as unknown[];
    const asObject: Record<string, unknown> = {};
    items.forEach((item, index) => (asObject[String(index)] = item));
    return [[...items].reverse(), items.slice(1), [...items, null], asObject, [items], items.length === 0 ? {} : []];
  }
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  const first = keys[0];
  if (first === undefined) return [[], null, { '': null }];
  const { [first]: dropped, ...rest } = record;
  return [rest, withEntry(record, `${first}x`, dropped), withEntry(record, 'added', null), Object.values(record), withEntry(record, first, null)];
}

/** `value` with exactly one node swapped for a look-alike; picks the node and the look-alike from `choice`. */
export function nearMiss(value: unknown, choice: number): unknown {
  const nodes: [unknown, (next: unknown) => unknown][] = [];
  nodesOf(value, (next) => next, nodes);
  const [node, replace] = nodes[choice % nodes.length] ?? [value, (next: unknown) => next];
  const options = lookalikes(node);
  return replace(options[Math.floor(choice / nodes.length) % options.length]);
}
