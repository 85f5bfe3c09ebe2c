/** The adapter configuration JSON of the Run view, edited one key at a time (LlmFields.tsx). */

export type Config = Record<string, unknown>;

/** The configuration object of the JSON text, or null when the text is not a JSON object. */
export function parseConfig(text: string): Config | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Config) : null;
  } catch {
    return null;
  }
}

/** The configuration with `key` set (or removed when `value` is undefined), as formatted JSON. */
export function withSetting(config: Config, key: string, value: unknown): string {
  const next: Config = { ...config };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return JSON.stringify(next, null, 2);
}

