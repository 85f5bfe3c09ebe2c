/**
 * The aggregation hierarchy (scoring-v1.0.md section 6): episode -> scenario
 * (mean over its applicable episodes) -> primary family (mean over its
 * scenarios) -> overall (mean over families). Scenario-balanced and micro
 * means are diagnostics. Everything is exact.
 */

import { Rational, mean } from './rational.js';

export interface HierarchyScenario {
  readonly scenarioId: string;
  /** Values of its applicable episodes, in manifest order (never empty). */
  readonly values: readonly Rational[];
}

export interface HierarchyFamily {
  readonly family: string;
  /** Its scenarios in manifest order (never empty). */
  readonly scenarios: readonly HierarchyScenario[];
}

/** Families sorted by name; empty scenarios and families are left out. */
export type Hierarchy = readonly HierarchyFamily[];

export interface HierarchyUnit {
  readonly family: string;
  readonly scenarioId: string;
  /** null for an episode that does not count (not applicable, or the value is undefined there). */
  readonly value: Rational | null;
}

/** Groups units (in manifest order) into the hierarchy, dropping null values and empty groups. */
export function buildHierarchy(units: readonly HierarchyUnit[]): Hierarchy {
  const families = new Map<string, Map<string, Rational[]>>();
  for (const unit of units) {
    if (unit.value === null) continue;
    let scenarios = families.get(unit.family);
    if (!scenarios) families.set(unit.family, (scenarios = new Map()));
    let values = scenarios.get(unit.scenarioId);
    if (!values) scenarios.set(unit.scenarioId, (values = []));
    values.push(unit.value);
  }
  return [...families.keys()]
    .sort()
    .map((family) => ({
      family,
      scenarios: [...families.get(family)!.entries()].map(([scenarioId, values]) => ({ scenarioId, values })),
    }));
}

export function episodeCount(h: Hierarchy): number {
  return h.reduce((n, f) => n + f.scenarios.reduce((m, s) => m + s.values.length, 0), 0);
}

export function scenarioMeans(h: Hierarchy): { family: string; scenarioId: string; mean: Rational }[] {
  return h.flatMap((f) => f.scenarios.map((s) => ({ family: f.family, scenarioId: s.scenarioId, mean: mean(s.values) })));
}

export function familyMeans(h: Hierarchy): { family: string; mean: Rational }[] {
  return h.map((f) => ({ family: f.family, mean: mean(f.scenarios.map((s) => mean(s.values))) }));
}

/** The headline: mean over families of mean over scenarios of mean over episodes; null when empty. */
export function familyBalancedMean(h: Hierarchy): Rational | null {
  return h.length === 0 ? null : mean(familyMeans(h).map((f) => f.mean));
}

export function scenarioBalancedMean(h: Hierarchy): Rational | null {
  const means = scenarioMeans(h);
  return means.length === 0 ? null : mean(means.map((s) => s.mean));
}

export function microMean(h: Hierarchy): Rational | null {
  const all = h.flatMap((f) => f.scenarios.flatMap((s) => s.values));
  return all.length === 0 ? null : mean(all);
}
