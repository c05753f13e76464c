import { describe, expect, it } from 'vitest';
import { escapeXml, mergeCoincident, paretoSvg, type ParetoPoint } from '../../eval/pareto-svg.js';
import { checkXml } from './well-formed-xml.js';

const AXES = { healthyRuns: 1563, stuckRuns: 126, title: 'False stops & catches <dev split>' };

const points: ParetoPoint[] = [
  { falseStops: 34, catches: 70, label: 'default guard', family: 'combined', highlight: true },
  { falseStops: 9, catches: 63, label: 'default, maxSteps off', family: 'combined', highlight: true },
  { falseStops: 0, catches: 32, label: 'stag 20/6', family: 'stagnation' },
  { falseStops: 0, catches: 0, label: 'finishReason', family: 'finishReason' },
  { falseStops: 0, catches: 0, label: 'maxSteps 150', family: 'maxSteps' },
  { falseStops: 7, catches: 29, label: 'repeat 3', family: 'repeatedToolCall' },
  { falseStops: 3, catches: 28, label: "Gemini CLI's <rule> & co", family: 'peer' },
];

describe('paretoSvg', () => {
  it('writes well-formed XML with a viewBox, a background, no script and one marker group per point', () => {
    const svg = paretoSvg(points, AXES);
    const { problems, elements } = checkXml(svg);
    expect(problems).toEqual([]);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).not.toMatch(/<script|<foreignObject|xlink:href|@import|url\(/);
    expect(elements.get('g')).toBe(points.length);
    expect(svg).toContain('False stops &amp; catches &lt;dev split&gt;');
    expect(svg).toContain('Gemini CLI&apos;s &lt;rule&gt; &amp; co');
  });

  it('draws one marker for coincident points of one family, labelled with both', () => {
    const twins: ParetoPoint[] = [
      { falseStops: 9, catches: 63, label: 'default, maxSteps 150', family: 'combined' },
      { falseStops: 9, catches: 63, label: 'default, maxSteps off', family: 'combined', highlight: true },
      { falseStops: 9, catches: 63, label: 'stag 12/6', family: 'stagnation' },
    ];
    expect(mergeCoincident(twins)).toEqual([
      { falseStops: 9, catches: 63, label: 'default, maxSteps off = default, maxSteps 150', family: 'combined', highlight: true },
      twins[2],
    ]);
    const { problems, elements } = checkXml(paretoSvg(twins, AXES));
    expect(problems).toEqual([]);
    expect(elements.get('g')).toBe(2);
  });

  it('lists in the legend only the families on the chart', () => {
    const svg = paretoSvg(points.slice(0, 3), AXES);
    expect(svg).toContain('stagnation alone');
    expect(svg).not.toContain('maxSteps alone');
  });
});

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});

describe('checkXml', () => {
  it('finds unclosed tags, bare ampersands and two roots', () => {
    expect(checkXml('<svg><g></svg>').problems.length).toBeGreaterThan(0);
    expect(checkXml('<svg><text>a & b</text></svg>').problems).toContain('bare & in text before offset 16');
    expect(checkXml('<a/><b/>').problems).toContain('2 root elements');
  });
});
