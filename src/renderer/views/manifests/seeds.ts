/** The seeds box of the Manifests view: decimal seeds and inclusive ranges `A..B`, separated by commas, semicolons, spaces or lines. */
export function splitSeeds(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const SEED_ITEM = /^(?:\d+|\d+\.\.\d+)$/;

/**
 * The first item that cannot be a seed or a range, said in the words of the
 * box's hint (the services check the rest: range order, leading zeros, 2^64).
 * Spaces separate items here, so the message never says "no spaces".
 */
export function seedsProblem(text: string): string | null {
  const parts = splitSeeds(text);
  const bad = parts.findIndex((p) => !SEED_ITEM.test(p));
  if (bad < 0) return null;
  const shown = parts[bad]!.length > 24 ? parts[bad]!.slice(0, 24) + '…' : parts[bad]!;
  return `“${shown}” (item ${bad + 1}) is not a seed or a range: type whole numbers such as 7, or ranges such as 0..29, separated by commas or spaces.`;
}

/** Why "Create manifest" cannot be pressed yet, or null when it can. */
export function createBlockedReason(suiteChosen: boolean, seedsText: string): string | null {
  if (!suiteChosen) return 'Add a suite first (Suites and packs): a manifest is made of a suite.';
  if (splitSeeds(seedsText).length === 0) return 'Type at least one seed to create a manifest.';
  return seedsProblem(seedsText);
}
