// A stand-in for the browser's localStorage in the renderer's unit tests: what the views keep across reloads
// (hidden Trials columns, pack Verify results) is written to and read from it, with no DOM.
export class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}
