/**
 * Stress scale (issue 11): time and peak memory of simulation, replay,
 * references, scoring and archive ingest on generated worlds at 1x, 4x and
 * 16x the work, up to the configuration of scenarios/generated/stress.json
 * (256 x 256 cells, 10,000 people, 1,000 steps). The scales multiply the
 * cells and the people by 4 at a time with the horizon fixed, so the
 * configured person-steps and cells x steps both grow 1x, 4x, 16x:
 *
 *   1x   64 x 64,     625 people, max 1,000 steps
 *   4x  128 x 128,  2,500 people
 *  16x  256 x 256, 10,000 people
 *
 * Each stage runs in its own process (bench/stress-stage.ts), so its peak
 * resident memory is its own. Growth is judged on the work the episode
 * really did (it ends when nobody is left to move, and a bigger world takes
 * longer to leave): the CPU cost ratio to 1x divided by the work ratio, in
 * person-steps, in cells x steps run and in cells x H (the fire world and
 * the references cover the horizon however early the episode ends); 1.00 is
 * exactly linear. A stage is linear in them together when its cost grows no
 * faster than the largest work ratio: the least normalized ratio is at most
 * about 1.
 *
 * `npm run bench -- stress` runs the three families of stress.json;
 * `--quick` (or EMBER_BENCH_QUICK=1) only the large hall.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGeneratorConfigText } from '../src/core/generate/config.js';
import { generateBatch } from '../src/core/generate/generate.js';
import type { RunRecord } from '../src/core/sim/record.js';
import { SUITE_MANIFEST_FILE } from '../src/core/world/suite.js';
import { ROOT, type Figure } from './harness.js';
import { AGENT, EPISODE_SEED, STAGES, type Stage, type StageFigures } from './stress-stage.js';

const STRESS_CONFIG = join(ROOT, 'scenarios', 'generated', 'stress.json');
const STAGE_PROGRAM = join(ROOT, 'bench', 'stress-stage.ts');
const BATCH_SEED = '1';
const SCALES = [
  { label: '1x', side: 64, people: 625 },
  { label: '4x', side: 128, people: 2500 },
  { label: '16x', side: 256, people: 10_000 },
] as const;
/** Cost per unit of work at 16x over that at 1x: at most this is "close to linear". */
const LINEAR_GOAL = 1.5;

interface FamilyEntry {
  readonly family: string;
  readonly max_steps: readonly [number, number];
}

interface Work {
  readonly cells: number;
  readonly people: number;
  readonly steps: number;
  /** H: the references cover every step to the horizon, whenever the episode ends. */
  readonly horizon: number;
  readonly personSteps: number;
}

export function quickStress(): boolean {
  return process.argv.includes('--quick') || process.env['EMBER_BENCH_QUICK'] === '1';
}

/** A one-scenario generated suite of `family` at one scale, written as a suite folder. */
function writeScaledSuite(dir: string, configText: string, entry: FamilyEntry, side: number, people: number): void {
  const config = JSON.parse(configText) as Record<string, unknown>;
  config['suite_id'] = `bench-stress-${entry.family.replaceAll('_', '-')}-${side}`;
  config['families'] = [{ ...entry, count: 1, rows: [side, side], cols: [side, side], people: [people, people] }];
  const batch = generateBatch(parseGeneratorConfigText(JSON.stringify(config), STRESS_CONFIG), BATCH_SEED);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, SUITE_MANIFEST_FILE), batch.suiteManifestText);
  for (const s of batch.scenarios) writeFileSync(join(dir, s.file), s.text);
}

function runStage(stage: Stage, ...files: string[]): StageFigures {
  const out = execFileSync(process.execPath, ['--import', 'tsx', STAGE_PROGRAM, stage, ...files], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as StageFigures;
}

function workOf(recordFile: string, side: number, horizon: number): Work {
  const record = JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord;
  const personSteps = record.trajectory.reduce((n, step) => n + step.actions.length, 0);
  return { cells: side * side, people: record.initial.people.length, steps: record.steps, horizon, personSteps };
}

/** The three work measures: person-steps, cells x steps run, cells x H (the fire world and the references cover the horizon). */
const MEASURES = [
  ['person-steps', (w: Work) => w.personSteps],
  ['cells x steps', (w: Work) => w.cells * w.steps],
  ['cells x H', (w: Work) => w.cells * w.horizon],
] as const;

const pad = (text: string, width: number) => text.padStart(width);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

async function benchFamily(root: string, configText: string, entry: FamilyEntry): Promise<Figure[]> {
  const works: Work[] = [];
  const figures: StageFigures[][] = [];
  const dirOf = (label: string) => join(root, `${entry.family}-${label}`);
  const recordOf = (label: string) => join(root, `${entry.family}-${label}.record.json`);
  for (const scale of SCALES) {
    const suiteDir = dirOf(scale.label);
    const recordFile = recordOf(scale.label);
    writeScaledSuite(suiteDir, configText, entry, scale.side, scale.people);
    // Every stage warms up on the 1x world (its record exists once the 1x simulation ran).
    figures.push(STAGES.map((stage) => runStage(stage, suiteDir, recordFile, dirOf(SCALES[0].label), recordOf(SCALES[0].label))));
    works.push(workOf(recordFile, scale.side, entry.max_steps[1]));
  }
  console.log(`  ${entry.family} (generated, batch seed ${BATCH_SEED}, episode seed ${EPISODE_SEED}, ${AGENT})`);
  SCALES.forEach((scale, i) => {
    const w = works[i]!;
    console.log(`    ${pad(scale.label, 3)}: ${scale.side} x ${scale.side} cells, ${int(w.people)} people, ${int(w.steps)} steps run: ${int(w.personSteps)} person-steps, ${int(w.cells * w.steps)} cell-steps`);
  });
  console.log(`    ${'stage'.padEnd(11)}${SCALES.map((s) => pad(`${s.label} wall s / CPU s / peak MiB`, 30)).join('')}`);
  const out: Figure[] = [];
  const ratios: string[] = [];
  STAGES.forEach((stage, k) => {
    const row = SCALES.map((_, i) => figures[i]![k]!);
    console.log(`    ${stage.padEnd(11)}${row.map((f) => pad(`${f.seconds.toFixed(3)} / ${f.cpuSeconds.toFixed(3)} / ${f.maxRssMiB.toFixed(0)}`, 30)).join('')}`);
    // CPU cost ratio to 1x over the work ratio to 1x, at 4x and 16x.
    const normalized = MEASURES.map(([, work]) => [1, 2].map((i) => row[i]!.cpuSeconds / row[0]!.cpuSeconds / (work(works[i]!) / work(works[0]!))));
    ratios.push(`    ${stage.padEnd(11)}${normalized.map((pair, m) => `${MEASURES[m]![0]} ${pair.map((r) => r.toFixed(2)).join(', ')}`).join('; ')}`);
    // Linear in the work measures together: the cost grows no faster than the largest of the work ratios.
    const linear = Math.min(...normalized.map((pair) => pair[1]!));
    out.push({ name: `${entry.family} ${stage}: CPU cost per unit of work, 16x over 1x (the least of the three)`, value: linear, unit: 'x', goal: `<= ${LINEAR_GOAL}`, ok: linear <= LINEAR_GOAL });
  });
  console.log('    CPU cost per unit of work at 4x, 16x over 1x (1.00 = linear):');
  for (const line of ratios) console.log(line);
  return out;
}

export async function benchStress(): Promise<Figure[]> {
  const configText = readFileSync(STRESS_CONFIG, 'utf8');
  const families = (parseGeneratorConfigText(configText, STRESS_CONFIG).json['families'] as unknown as FamilyEntry[]).slice(0, quickStress() ? 1 : undefined);
  const root = mkdtempSync(join(tmpdir(), 'ember-bench-stress-'));
  try {
    const out: Figure[] = [];
    for (const entry of families) out.push(...(await benchFamily(root, configText, entry)));
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
