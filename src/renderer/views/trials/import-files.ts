/**
 * The files chosen for an import: one evaluation result and, optionally,
 * its operational record, which `evaluation run` names RESULT_STEM.operational.json
 * (any file ending in `.operational.json` is taken as the record), and
 * optionally its signatures (`.sig.json`, written by `result sign`).
 */

export interface ImportFiles<F> {
  readonly result?: F;
  readonly operational?: F;
  /** Its detached signatures (`result sign` writes RESULT_STEM.sig.json). */
  readonly signature?: F;
  /** Why the choice cannot be imported (when `result` is undefined). */
  readonly problem: string;
}

export function isOperationalFileName(name: string): boolean {
  return name.endsWith('.operational.json');
}

export function isSignatureFileName(name: string): boolean {
  return name.endsWith('.sig.json');
}

export function splitImportFiles<F extends { readonly name: string }>(files: readonly F[]): ImportFiles<F> {
  const records = files.filter((f) => isOperationalFileName(f.name));
  const signatures = files.filter((f) => isSignatureFileName(f.name));
  const results = files.filter((f) => !isOperationalFileName(f.name) && !isSignatureFileName(f.name));
  if (results.length !== 1) {
    return { problem: results.length === 0 ? 'Choose the result file too: an operational record is imported with its result.' : `Choose one result at a time (${results.length} were chosen).` };
  }
  if (records.length > 1) return { problem: `Choose at most one operational record with the result (${records.length} were chosen).` };
  if (signatures.length > 1) return { problem: `Choose at most one signature file with the result (${signatures.length} were chosen).` };
  return { result: results[0]!, ...(records.length === 1 ? { operational: records[0]! } : {}), ...(signatures.length === 1 ? { signature: signatures[0]! } : {}), problem: '' };
}
