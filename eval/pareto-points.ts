/** The chart's points: one per configuration, from the results of all sources together. */
import { DEFAULT_GUARD, HEADLINE, type Configuration } from './configurations.js';
import type { ParetoPoint } from './pareto-svg.js';
import type { SourceResults } from './replay-source.js';

/**
 * A point per configuration: its false stops and catches over all sources. The default guard, with and without its
 * step limit, is highlighted.
 * @param configurations - the rows, in the order of `total.results`
 * @param total - all sources combined
 */
export function paretoPoints(configurations: readonly Configuration[], total: SourceResults): ParetoPoint[] {
  return configurations.map((configuration, i) => {
    const summary = total.results[i]?.summary;
    if (summary === undefined) throw new Error(`no result for ${configuration.name}`);
    return {
      falseStops: summary.healthy.falseStops,
      catches: summary.stuck.catches,
      label: configuration.label,
      family: configuration.family,
      highlight: configuration.id === DEFAULT_GUARD || configuration.id === HEADLINE,
    };
  });
}
