/**
 * The shareable HTML report of an official bundle: one self-contained file
 * (inline CSS, SVG charts, the episode table, and an inline canvas replay of
 * the episodes the user picks) that opens offline in any browser; its
 * Content-Security-Policy forbids every network request. Built only from a
 * bundle that verifies, so everything it shows was authenticated.
 * Deterministic: the same bundle and choices give the same bytes.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_INDEX_FILE, BUNDLE_PACK_DIR } from '../../core/bundle/bundle-index.js';
import { fieldError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { decodeRecordFrames } from '../../core/replay/record-frames.js';
import type { ComparisonArtifact } from '../../core/scoring/compare.js';
import { COMPONENTS } from '../../core/scoring/evidence.js';
import { parseOperationalRecordText } from '../../core/scoring/operational.js';
import type { ScoreReport } from '../../core/scoring/report.js';
import { readResultEpisode, type ResultEpisode } from '../../core/eval/result.js';
import { parseJsonInput } from '../../core/json/strict-parse.js';
import { resultFileEpisodeTexts } from '../eval/result-reader.js';
import { Rational } from '../../core/stats/rational.js';
import { loadPack } from '../pack.js';
import { verifyBundle } from '../bundle/bundle.js';
import type { CheckedSignature } from '../../core/signing/signatures.js';
import { barChart, displayNumber, escapeHtml, pointsText } from './svg.js';
import { PLAYER_SCRIPT } from './player-script.js';

export interface HtmlReportOptions {
  /** Episode indices to embed as replays (default: the lowest-scoring three of the first model). */
  readonly episodes?: readonly number[];
}

/** The most replays one report embeds: each can be megabytes. */
export const MAX_REPORT_REPLAYS = 12;

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#f6f5f1;margin:0}
main{max-width:1080px;margin:0 auto;padding:28px 24px 64px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:36px 0 10px;border-bottom:1px solid #ddd8cc;padding-bottom:6px}
.muted{color:#667085}.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}
.official{background:#dcfce7;color:#166534}.unofficial{background:#fee2e2;color:#991b1b}
.cards{display:flex;gap:16px;flex-wrap:wrap}.card{background:#fff;border:1px solid #e4dfd3;border-radius:10px;padding:16px 20px;min-width:280px;flex:1}
.score{font-size:44px;font-weight:700;letter-spacing:-1px}.interval{color:#475467}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}th,td{padding:5px 8px;border-bottom:1px solid #eee;text-align:left}
th{background:#f0ede4;position:sticky;top:0}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.replay{background:#fff;border:1px solid #e4dfd3;border-radius:10px;padding:14px;margin:14px 0}
.controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:8px 0}.controls input[type=range]{flex:1;min-width:200px}
button,select{font:inherit;padding:3px 10px;border:1px solid #c9c2b1;border-radius:6px;background:#fff;cursor:pointer}
canvas{image-rendering:pixelated;max-width:100%;border-radius:4px}
.legend span{margin-right:12px}.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:middle}
footer{margin-top:40px;font-size:12px;color:#667085}
`;

function oneDecimal(value: string | null): string {
  return value === null ? 'n/a' : Rational.parse(value).toFixed(1);
}

function readJson<T>(dir: string, file: string): T {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
}

/** The agent's isolation level from the model's bundled operational record, when there is one with the field. */
function isolationOf(bundleDir: string, dir: string, hasRecord: boolean): string | null {
  if (!hasRecord) return null;
  const record = parseOperationalRecordText(readFileSync(join(bundleDir, dir, 'operational.json'), 'utf8'), `${dir}/operational.json`);
  return record.isolation ?? null;
}

function headline(report: ScoreReport, dir: string, isolation: string | null): string {
  const interval = report.interval === null ? 'no interval (fewer than 5 applicable episodes)' : `95% CI [${oneDecimal(report.interval.lower)}, ${oneDecimal(report.interval.upper)}]`;
  const badge = report.official ? '<span class="badge official">official</span>' : '<span class="badge unofficial">UNOFFICIAL</span>';
  return `<div class="card" data-model="${escapeHtml(dir)}"><div class="muted">${escapeHtml(report.model_id)} · ${report.trials.length} trial${report.trials.length === 1 ? '' : 's'} ${badge}</div>
<div class="score" data-score>${oneDecimal(report.score)}</div><div class="interval">${interval} · EMBER Score, 0 to 100 points</div>${
    isolation === null ? '' : `<div class="muted" data-isolation>agent isolation: ${isolation === 'none' ? '<b style="color:#b42318">none (the agent ran without a sandbox)</b>' : escapeHtml(isolation)}</div>`
  }</div>`;
}

function modelSection(report: ScoreReport): string {
  const components = COMPONENTS.map((k) => ({ label: `${k} (${report.components[k].defined}/${report.components[k].total})`, value: report.components[k].mean === null ? null : displayNumber(report.components[k].mean!) }));
  const families = report.families.map((f) => ({ label: f.family, value: displayNumber(f.score) / 100 }));
  const zero = report.zero_score;
  const people = report.totals.per_trial;
  return `<h2>${escapeHtml(report.model_id)}</h2>
<div class="cards"><div class="card"><h3>Components (0 to 1)</h3>${barChart(components, { max: 1, format: (v) => v.toFixed(3) })}</div>
<div class="card"><h3>Primary families (points)</h3>${barChart(families, { max: 1, format: (v) => (v * 100).toFixed(1) })}</div></div>
<p>Safety factor ${report.safety.mean === null ? 'n/a' : Rational.parse(report.safety.mean).toFixed(3)}; quality factor ${report.quality.mean === null ? 'n/a' : Rational.parse(report.quality.mean).toFixed(3)}.
Zero-score episode-trials: ${zero.total} of ${report.episode_trials.applicable} (catastrophic ${zero.catastrophic}, missing ${zero.missing}, invalid output ${zero.invalid_output}, model error ${zero.model_error}, timeout ${zero.timeout}).
People per trial: escapable ${oneDecimal(people.escapable)}, evacuated ${oneDecimal(people.evacuated)}, avoidable casualties ${oneDecimal(people.avoidable_casualties)}, avoidable stranded ${oneDecimal(people.avoidable_stranded)}.
Tail: median scenario ${oneDecimal(report.tail.median_scenario)}, p10 episode ${oneDecimal(report.tail.p10_episode)}, CVaR10 ${oneDecimal(report.tail.cvar10)}.</p>`;
}

function comparisonSection(c: ComparisonArtifact): string {
  const interval = c.interval === null ? 'no interval' : `95% CI [${oneDecimal(c.interval.lower)}, ${oneDecimal(c.interval.upper)}]`;
  const bars = c.family_deltas.map((f) => ({ label: f.family, value: displayNumber(f.delta) / 100 }));
  return `<h2>Comparison</h2><div class="card"><div class="muted">A = ${escapeHtml(c.report_a.model_id)}, B = ${escapeHtml(c.report_b.model_id)}</div>
<div class="score" data-outcome>${escapeHtml(c.outcome)}</div><div class="interval">delta A − B ${pointsText(c.delta)} points, ${interval}</div>
<h3>Family deltas (points)</h3>${barChart(bars, { max: 1, signed: true, format: (v) => (v * 100).toFixed(1) })}</div>`;
}

function episodeTable(reports: readonly ScoreReport[]): string {
  const head = reports.map((r) => `<th class="num">${escapeHtml(r.model_id)} score</th><th>status</th><th class="num">evac.</th><th class="num">dead</th>`).join('');
  const rows = reports[0]!.episodes.map((e, k) => {
    const cells = reports
      .map((r) => {
        const ep = r.episodes[k]!;
        const t = ep.trials[0];
        return `<td class="num">${oneDecimal(ep.score)}</td><td>${escapeHtml(t?.status ?? '')}</td><td class="num">${t?.people?.evacuated ?? ''}</td><td class="num">${t?.people ? t.people.avoidable_casualties + t.people.unavoidable_casualty_ids.length : ''}</td>`;
      })
      .join('');
    return `<tr><td class="num">${e.index}</td><td>${escapeHtml(e.scenario_id)}</td><td>${escapeHtml(e.primary_family)}</td><td class="num">${e.max_evacuated}</td>${cells}</tr>`;
  });
  return `<h2>Episodes</h2><table><thead><tr><th class="num">#</th><th>scenario</th><th>family</th><th class="num">M*</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function defaultEpisodes(report: ScoreReport): number[] {
  return report.episodes
    .filter((e) => e.score !== null && e.trials[0]?.record_digest !== null)
    .sort((a, b) => Rational.parse(a.score!).cmp(Rational.parse(b.score!)) || a.index - b.index)
    .slice(0, 3)
    .map((e) => e.index)
    .sort((a, b) => a - b);
}

/**
 * The picked episodes of a verified result, read one at a time (a result of
 * any size): only their text is parsed. The file must still have the digest
 * it was verified with (else OutputError).
 */
function pickedEpisodes(path: string, digest: string, picked: readonly number[], source: string): Map<number, ResultEpisode> {
  const wanted = new Set(picked);
  const episodes = new Map<number, ResultEpisode>();
  for (const text of resultFileEpisodeTexts(path, digest)) {
    // Canonical JSON: an episode's first key is its index.
    const index = Number(/^\{"index":(\d+),/.exec(text)?.[1]);
    if (wanted.has(index)) episodes.set(index, readResultEpisode(parseJsonInput(text, source), source, `episode ${index}`));
  }
  return episodes;
}

/** The bundle's signers (each signature was checked by verifyBundle); trust is the reader's call, by fingerprint. */
function signersSection(signatures: readonly CheckedSignature[]): string {
  const rows = signatures.map((s) => `<tr><td><code>${s.fingerprint}</code></td><td>${escapeHtml(s.signedAt)}</td><td><code>${s.publicKey}</code></td></tr>`).join('');
  return `
<h2>Signed by</h2><p class="muted">Each signature below is valid for this bundle's index (bundle.json), which lists the digest of every file. A signature tells who vouches for the bundle, not that you should trust them: compare each fingerprint with the one its operator published (<code>emberbench bundle verify --trust KEY --require-signature</code>).</p>
<table><thead><tr><th>key fingerprint</th><th>signed at</th><th>public key</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const b64 = (array: ArrayBufferView): string => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');

/** Renders the report of a bundle folder (verified first: exit 3/5 when it does not verify). */
export function renderHtmlReport(bundleDir: string, opts: HtmlReportOptions = {}): string {
  const { index, resultDigests, signatures } = verifyBundle(bundleDir);
  const reports = index.models.map((m) => readJson<ScoreReport>(bundleDir, `${m.dir}/score.json`));
  const comparison = index.comparison_outcome === null ? null : readJson<ComparisonArtifact>(bundleDir, 'comparison.json');
  const scheduled = new Set(reports[0]!.episodes.map((e) => e.index));
  const picked = opts.episodes ?? defaultEpisodes(reports[0]!);
  if (picked.length > MAX_REPORT_REPLAYS) throw fieldError('episodes', `pick at most ${MAX_REPORT_REPLAYS} episodes to replay (each can be megabytes)`);
  for (const e of picked) if (!scheduled.has(e)) throw fieldError('episodes', `episode ${e} is not in the bundle's manifest (0 to ${scheduled.size - 1})`);

  const pack = loadPack(join(bundleDir, BUNDLE_PACK_DIR));
  const scenarios = new Map(pack.suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const replays: unknown[] = [];
  const replayHtml: string[] = [];
  index.models.forEach((m, position) => {
    const file = `${m.dir}/trial-1.result.json`;
    const episodes = pickedEpisodes(join(bundleDir, file), resultDigests.get(file)!, picked, file);
    for (const e of picked) {
      const episode = episodes.get(e);
      const job = pack.manifest.episodes[e]!;
      if (episode === undefined) {
        replayHtml.push(`<div class="replay"><b>${escapeHtml(m.model_id)}</b>, episode ${e} (${escapeHtml(job.scenario_id)}): no run record (the episode failed).</div>`);
        continue;
      }
      const scenario = scenarios.get(job.scenario_id)!;
      const f = decodeRecordFrames(scenario.grid, episode.record);
      const title = `${m.model_id} · episode ${e} · ${job.scenario_id} (${scenario.title})`;
      replays.push({ title, rows: f.rows, cols: f.cols, map: scenario.grid.map, people: f.people, steps: f.steps, cells: b64(f.cells), status: b64(f.status), burn: b64(f.burnStep), counts: b64(f.counts) });
      replayHtml.push(`<div class="replay" data-replay="${replays.length - 1}" data-position="${position}"><b>${escapeHtml(title)}</b>
<div class="controls"><button data-act="start" title="jump to start">Start</button><button data-act="back" title="one step back">◀</button><button data-act="play">Play</button><button data-act="fwd" title="one step forward">▶</button><button data-act="end" title="jump to end">End</button>
<input type="range" min="0" value="0" aria-label="step"><select aria-label="speed"><option value="0.25">0.25×</option><option value="1" selected>1×</option><option value="4">4×</option><option value="16">16×</option></select></div>
<canvas></canvas><div class="controls"><span data-clock></span><span class="muted" data-counts></span></div></div>`);
    }
  });

  const title = reports.length === 2 ? `${reports[0]!.model_id} vs ${reports[1]!.model_id}` : reports[0]!.model_id;
  const legend = `<p class="legend"><span><i class="dot" style="background:#2563eb"></i>active</span><span><i class="dot" style="background:#111"></i>dead</span><span><i class="dot" style="background:#a855f7"></i>stranded</span><span><i class="dot" style="background:#e8542f"></i>fire</span><span><i class="dot" style="background:#2e9d5b"></i>exit</span> Evacuated people leave the map.</p>`;
  const bundleDigest = sha256Hex(readFileSync(join(bundleDir, BUNDLE_INDEX_FILE)));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>EMBER report: ${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><main>
<h1>EMBER report: ${escapeHtml(title)}</h1>
<p class="muted">Environment pack ${escapeHtml(index.pack_id)} · manifest ${index.manifest_hash.slice(0, 16)}… · ${reports[0]!.episodes.length} episodes · scoring version ${escapeHtml(reports[0]!.scoring_version)}</p>
<div class="cards">${reports.map((r, k) => headline(r, index.models[k]!.dir, isolationOf(bundleDir, index.models[k]!.dir, index.models[k]!.operational))).join('')}</div>${signatures === null ? '' : signersSection(signatures)}
${comparison === null ? '' : comparisonSection(comparison)}
${reports.map(modelSection).join('\n')}
${episodeTable(reports)}
<h2>Replays</h2>${legend}${replayHtml.join('\n') || '<p class="muted">No episode picked.</p>'}
<footer>Made from the official bundle with index sha256 ${bundleDigest}; verify the bundle with <code>emberbench bundle verify</code>. The EMBER Score is not a percentage of people evacuated.</footer>
</main>
<script type="application/json" id="ember-replays">${JSON.stringify(replays).replace(/</g, '\\u003c')}</script>
<script>${PLAYER_SCRIPT}</script>
</body></html>
`;
}
