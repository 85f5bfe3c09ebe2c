/**
 * Small, dependency-free SVG charts for the HTML report. Values here are for
 * drawing only (bar lengths): every number printed is rounded from the
 * exact report values by the caller.
 */

import { Rational } from '../../core/stats/rational.js';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** An exact "num/den" or decimal value as a display number (bar lengths only). */
export function displayNumber(value: string): number {
  return Number(Rational.parse(value).toFixed(6));
}

/** Points to one decimal with an explicit sign, from an exact value. */
export function pointsText(value: string | null): string {
  if (value === null) return 'n/a';
  const text = Rational.parse(value).toFixed(1);
  return text.startsWith('-') ? `−${text.slice(1)}` : `+${text}`;
}

export interface Bar {
  readonly label: string;
  /** null: undefined (drawn as n/a). */
  readonly value: number | null;
}

export interface BarChartOptions {
  readonly max: number;
  /** Bars grow left (negative) and right (positive) from a centre line. */
  readonly signed?: boolean;
  readonly format: (value: number) => string;
}

/** Horizontal bars with labels and values. */
export function barChart(bars: readonly Bar[], opts: BarChartOptions): string {
  const rowHeight = 24;
  const labelWidth = 210;
  const plotWidth = 300;
  const width = labelWidth + plotWidth + 70;
  const height = bars.length * rowHeight + 6;
  const zero = opts.signed === true ? labelWidth + plotWidth / 2 : labelWidth;
  const scale = (opts.signed === true ? plotWidth / 2 : plotWidth) / opts.max;
  const rows = bars.map((bar, k) => {
    const y = k * rowHeight + 4;
    const label = `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" font-size="12" fill="#344054">${escapeHtml(bar.label)}</text>`;
    if (bar.value === null) return `${label}<text x="${zero + 4}" y="${y + 15}" font-size="12" fill="#98a2b3">n/a</text>`;
    const length = Math.min(Math.abs(bar.value) * scale, opts.signed === true ? plotWidth / 2 : plotWidth);
    const x = bar.value < 0 ? zero - length : zero;
    const color = bar.value < 0 ? '#dc6b4a' : '#3b82c4';
    const textX = bar.value < 0 ? x - 4 : x + length + 4;
    const anchor = bar.value < 0 ? 'end' : 'start';
    return `${label}<rect x="${x.toFixed(1)}" y="${y + 3}" width="${length.toFixed(1)}" height="${rowHeight - 9}" rx="2" fill="${color}"/><text x="${textX.toFixed(1)}" y="${y + 15}" text-anchor="${anchor}" font-size="12" fill="#344054">${escapeHtml(opts.format(bar.value))}</text>`;
  });
  const axis = `<line x1="${zero}" y1="0" x2="${zero}" y2="${height}" stroke="#98a2b3" stroke-width="1"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="max-width:${width}px" viewBox="0 0 ${width} ${height}" role="img">${axis}${rows.join('')}</svg>`;
}
