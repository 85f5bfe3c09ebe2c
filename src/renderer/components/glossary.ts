/**
 * The score's terms in plain words, for the trial page's "What these terms
 * mean" list and the tooltips of the figures that use them. docs/glossary.md
 * says the same at more length; scoring.md has the formulas.
 */

export const GLOSSARY: readonly { readonly term: string; readonly meaning: string }[] = [
  { term: 'EMBER Score', meaning: 'Benchmark points from 0 to 100: each episode scores 100 × Safety × Quality^β × Severity, and episodes are averaged per scenario, per family, then over families.' },
  { term: 'safety factor', meaning: 'How many of the savable people got out, with a steep price for each avoidable death or stranding; 0 when half or more of the savable people are lost.' },
  { term: 'quality factor', meaning: 'A weighted geometric mean of Time, Hazard, Path and Replanning over the components defined in the episode.' },
  { term: 'time', meaning: 'Q_cut divided by the evacuees’ total evacuation steps: 1 when the crowd left as fast as exits and doors allow.' },
  { term: 'hazard', meaning: 'How little time evacuees spent in the danger zone beyond D*_i, the least any plan could manage.' },
  { term: 'path', meaning: 'The fewest cells each evacuee had to move (m*_i, fire-aware) over the cells they did move.' },
  { term: 'replanning', meaning: 'How quickly people found a new way out after the fire cut their route, against the fastest possible recovery.' },
  { term: 'L_i', meaning: 'The earliest step at which person i could be out if alone in the building with a perfect plan; a person with a finite L_i is savable.' },
  { term: 'm*_i', meaning: 'The fewest cells person i must move to get out, taking the fire into account.' },
  { term: 'D*_i', meaning: 'The fewest danger-zone steps person i must spend on the way out, whatever the plan.' },
  { term: 'Q_cut', meaning: 'A lower bound on the evacuees’ total evacuation steps that counts the queues no plan can avoid at exits and doors.' },
  { term: 'CVaR10', meaning: 'The mean of the lowest tenth of episode scores: how bad the bad episodes are.' },
  { term: 'p10 episode', meaning: 'The episode score that a tenth of episodes fall at or below.' },
  { term: 'avoidable / unavoidable', meaning: 'A loss is avoidable when that person was savable (finite L_i); only avoidable losses lower Safety.' },
];

/** The meaning of a term (case-insensitive), for a tooltip; undefined when the glossary has none. */
export function meaningOf(term: string): string | undefined {
  const t = term.toLowerCase();
  return GLOSSARY.find((g) => g.term.toLowerCase() === t)?.meaning;
}
