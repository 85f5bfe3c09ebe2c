/** The command tree built from the registered command modules. */

import type { CommandModule, CommandSpec } from './command.js';

export interface CommandNode {
  /** Command words from the root to this node ([] for the root). */
  readonly path: readonly string[];
  /** Children in registration order. */
  readonly children: Map<string, CommandNode>;
  /** The command this node runs, if any (a node may also have children: `score` and `score compare`). */
  command?: CommandSpec;
  /** One line for a group's help (the module summary). */
  summary?: string;
}

function newNode(path: readonly string[]): CommandNode {
  return { path, children: new Map() };
}

/** Builds the tree; throws on a command registered twice (a programming error). */
export function buildCommandTree(modules: readonly CommandModule[]): CommandNode {
  const root = newNode([]);
  for (const module of modules) {
    for (const command of module.commands) {
      if (command.words[0] !== module.group) {
        throw new Error(`command '${command.words.join(' ')}' is not in its module's group '${module.group}'`);
      }
      let node = root;
      for (const word of command.words) {
        let child = node.children.get(word);
        if (!child) {
          child = newNode([...node.path, word]);
          node.children.set(word, child);
        }
        node = child;
      }
      if (node.command) throw new Error(`command '${command.words.join(' ')}' is registered twice`);
      node.command = command;
    }
    const top = root.children.get(module.group);
    if (top) top.summary = module.summary;
  }
  return root;
}

/** Every command under a node, depth first, in registration order. */
export function commandsUnder(node: CommandNode): CommandSpec[] {
  const out: CommandSpec[] = [];
  if (node.command) out.push(node.command);
  for (const child of node.children.values()) out.push(...commandsUnder(child));
  return out;
}
