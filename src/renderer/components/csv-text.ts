/** CSV text for the page's downloads (csv.ts): the comparison's and a trial's episodes, and the Trials table. */

/**
 * CSV text (RFC 4180, CRLF). A text cell that a spreadsheet would run as a
 * formula (a model ID such as `=HYPERLINK(...)` from an imported result) is
 * written with a leading apostrophe; numbers, also negative ones, are kept.
 */
export function csvText(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const cell = (v: string | number | null) => {
    let s = v === null ? '' : String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?(\/\d+)?$/.test(s)) s = "'" + s;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
