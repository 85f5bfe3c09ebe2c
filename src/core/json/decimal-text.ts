/**
 * Exact decimals as text. Canonical JSON holds no floats, so a decimal
 * setting (a temperature, a price) is kept as a string such as "0.7". Users
 * write them as JSON numbers (`"temperature": 0.7`, copied from a provider's
 * docs) or as strings with a trailing zero ("0.60"): both mean one exact
 * value, and these functions give its one spelling, so equal settings hash
 * equally. Pure string arithmetic: no float ever touches the value.
 */

/** A JSON number token (RFC 8259). */
const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
/** A plain decimal as users write it in a string: digits, an optional fraction; no sign or exponent. */
const PLAIN_DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;
/** Exponents beyond this would spell thousands of digits: no setting needs them. */
const MAX_EXPONENT = 400;

/** Digits and a power of ten → the shortest plain spelling: no leading or trailing zeros, no "-0". */
function spell(negative: boolean, digits: string, pointAt: number): string {
  // `digits` with the decimal point `pointAt` digits from the left (may be < 0 or > length).
  let whole = pointAt <= 0 ? '0' : digits.slice(0, pointAt).padEnd(pointAt, '0');
  let fraction = pointAt >= digits.length ? '' : pointAt < 0 ? '0'.repeat(-pointAt) + digits : digits.slice(pointAt);
  whole = whole.replace(/^0+(?=[0-9])/, '');
  fraction = fraction.replace(/0+$/, '');
  const text = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && text !== '0' ? `-${text}` : text;
}

/**
 * The exact value of a JSON number token as a plain decimal: "0.60" → "0.6",
 * "7.0" → "7", "1e-7" → "0.0000001", "-2.5E1" → "-25". Undefined when `token`
 * is not a JSON number or its exponent is beyond ±400.
 */
export function decimalTextOfJsonNumber(token: string): string | undefined {
  const m = JSON_NUMBER.exec(token);
  if (m === null) return undefined;
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  const fraction = m[3] ?? '';
  return spell(m[1] === '-', m[2]! + fraction, m[2]!.length + exponent);
}

/**
 * The one spelling of a plain non-negative decimal written as text ("0.60",
 * "00.5", "1.000") → "0.6", "0.5", "1"; undefined for anything else (a sign,
 * an exponent, spaces, a bare point).
 */
export function normalDecimalText(text: string): string | undefined {
  const m = PLAIN_DECIMAL.exec(text);
  if (m === null) return undefined;
  return spell(false, m[1]! + (m[2] ?? ''), m[1]!.length);
}

/**
 * The exact decimal of a JavaScript number that came from JSON.parse (the
 * app's forms): its shortest round-trip spelling, which is the text written
 * for every decimal of up to 15 significant digits.
 */
export function decimalTextOfNumber(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  return decimalTextOfJsonNumber(String(value).replace('e+', 'e'));
}
