/**
 * Finds import circles among TypeScript sources. Type-only imports count too:
 * a circle of types still ties the files so that neither can be read, moved or
 * tested without the other.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Each file (by path) and the files it imports (by path), relative imports only. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.(ts|tsx)$/;

/** Every .ts/.tsx file under the given folders, declaration files left out. */
export function listSources(folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return out;
}

/** The relative module specifiers of one file: imports, re-exports and dynamic imports. */
export function importSpecifiers(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('./') || s.startsWith('../'));
}

/** The file a relative specifier names ('./x.js' is ./x.ts or ./x.tsx), or undefined when none exists. */
export function resolveSpecifier(from: string, specifier: string, exists: (path: string) => boolean = existsSync): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => SOURCE.test(c) && exists(c));
}

/** Reads the files and builds their import graph, keyed by absolute path. */
export function buildImportGraph(files: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const abs = resolve(file);
    const targets = importSpecifiers(readFileSync(abs, 'utf8'))
      .map((s) => resolveSpecifier(abs, s))
      .filter((t): t is string => t !== undefined);
    graph.set(abs, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The circles of the graph: one per strongly connected component of more than
 * one file (or a file importing itself), each given as a closed path
 * a → b → … → a, so that the message names the imports to cut.
 */
export function findCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  // Iterative Tarjan, so that a deep chain of imports cannot overflow the stack.
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((component) => closedPath(graph, component)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest closed path through the component's first file, found breadth first. */
function closedPath(graph: ImportGraph, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...component, start];
}

/** One line per circle, paths relative to root: "a.ts → b.ts → a.ts". */
export function describeCycles(cycles: readonly string[][], root: string): string[] {
  return cycles.map((cycle) => cycle.map((p) => relative(root, p)).join(' → '));
}
