/** How the trade-off chart draws things: colours and shapes per family, markers, text. */
import type { Family } from './configurations.js';

/** System fonts only: an SVG shown as an image cannot load any. */
export const FONT = 'font-family="Helvetica, Arial, sans-serif"';

/** A coordinate with one decimal. */
export const fixed = (value: number): string => value.toFixed(1);

/** Colour, shape and legend text of each family (Okabe-Ito colours, which colour-blind readers tell apart). */
export const FAMILY_STYLE: Readonly<Record<Family, { readonly colour: string; readonly shape: 'square' | 'circle' | 'diamond'; readonly legend: string }>> = {
  combined: { colour: '#000000', shape: 'square', legend: 'guard, several detectors' },
  maxSteps: { colour: '#E69F00', shape: 'circle', legend: 'maxSteps alone' },
  finishReason: { colour: '#999999', shape: 'circle', legend: 'finishReason alone' },
  repeatedToolCall: { colour: '#56B4E9', shape: 'circle', legend: 'repeatedToolCall alone' },
  oscillation: { colour: '#009E73', shape: 'circle', legend: 'oscillation alone' },
  noProgress: { colour: '#0072B2', shape: 'circle', legend: 'noProgress alone' },
  stagnation: { colour: '#D55E00', shape: 'circle', legend: 'stagnation alone (window/maxNew)' },
  peer: { colour: '#CC79A7', shape: 'diamond', legend: "another agent's rule" },
};

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A marker: a circle, a square or a diamond of half-size `r` centred on the point. */
export function marker(shape: 'square' | 'circle' | 'diamond', x: number, y: number, r: number, attributes: string): string {
  if (shape === 'circle') return `<circle cx="${fixed(x)}" cy="${fixed(y)}" r="${fixed(r)}" ${attributes}/>`;
  if (shape === 'square') return `<rect x="${fixed(x - r)}" y="${fixed(y - r)}" width="${fixed(2 * r)}" height="${fixed(2 * r)}" ${attributes}/>`;
  const d = r * 1.3;
  return `<polygon points="${fixed(x)},${fixed(y - d)} ${fixed(x + d)},${fixed(y)} ${fixed(x)},${fixed(y + d)} ${fixed(x - d)},${fixed(y)}" ${attributes}/>`;
}
