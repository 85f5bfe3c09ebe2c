/** CSV files built in the page (no server, no file path): the comparison's and a trial's episodes, and the Trials table. */

import { csvText } from './csv-text.js';

/** A CSV download built in the page (no server, no file path). */
export function downloadCsv(name: string, header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): void {
  const text = csvText(header, rows);
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
