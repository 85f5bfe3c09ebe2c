/**
 * The front door of the `report` commands (src/cli/commands/report.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { renderHtmlReport } from '../report-html/html-report.js';
export { checkOutputPath, writeOutputFile } from '../files.js';
