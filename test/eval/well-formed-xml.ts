/**
 * A small well-formedness check for the SVG the eval writes (no XML parser is a dependency): one root element, tags
 * that nest and close, attributes quoted, and no bare `<` or `&` in text.
 * @returns the problems found, and how many times each element name opens
 */
export function checkXml(xml: string): { problems: string[]; elements: Map<string, number> } {
  const problems: string[] = [];
  const elements = new Map<string, number>();
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let text = '';
  for (let i = 0; i < xml.length; ) {
    const char = xml.charAt(i);
    if (char !== '<') {
      text += char;
      i++;
      continue;
    }
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) problems.push(`bare & in text before offset ${String(i)}`);
    text = '';
    tag.lastIndex = i;
    const match = tag.exec(xml);
    if (match === null) {
      problems.push(`malformed tag at offset ${String(i)}`);
      break;
    }
    const [whole, closing, name = '', , selfClosing] = match;
    if (closing === '/') {
      if (stack.pop() !== name) problems.push(`</${name}> closes nothing open`);
    } else {
      elements.set(name, (elements.get(name) ?? 0) + 1);
      if (stack.length === 0) roots++;
      if (selfClosing !== '/') stack.push(name);
    }
    i += whole.length;
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  if (roots !== 1) problems.push(`${String(roots)} root elements`);
  if (text.trim() !== '') problems.push('text after the root element');
  return { problems, elements };
}
