/**
 * The check of a positive integer option, apart from options.ts so that the
 * argument checks every episode-running command imports (arguments.ts) do
 * not load the generated-suite loader and the bootstrap with it.
 */

import { UsageError } from '../core/errors.js';

/**
 * A canonical decimal integer in [1, max] for `option`, else a usage error
 * that says what is wrong with the value (negative, a leading zero, out of
 * range, not an integer) and the range it must be in.
 */
export function positiveIntegerArgument(option: string, text: string, max: number): number {
  const rule = `must be an integer in [1, ${max}]`;
  if (/^[1-9][0-9]*$/.test(text) && text.length <= String(max).length && Number(text) <= max) return Number(text);
  let problem: string;
  if (text === '') problem = 'the value is empty';
  else if (/^-[0-9]+$/.test(text)) problem = `${text} is negative`;
  else if (/^0[0-9]+$/.test(text)) problem = `${text} has a leading zero (write it with no leading zeros)`;
  else if (/^[0-9]+$/.test(text)) problem = `${text} is out of range`;
  else problem = `'${text}' is not a decimal integer`;
  return usage(`${option}: ${problem}: ${rule}`);
}

function usage(message: string): never {
  throw new UsageError(message);
}

