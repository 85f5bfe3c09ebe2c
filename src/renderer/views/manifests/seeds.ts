/** The seeds box of the Manifests view: decimal seeds and inclusive ranges `A..B`, separated by commas, semicolons, spaces or lines. */
export function splitSeeds(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
