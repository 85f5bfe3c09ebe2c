import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS } from './help.js';
import { COMMAND_MODULES, commandTree } from './registry.js';
import { buildCommandTree, commandsUnder } from './tree.js';

describe('the command table', () => {
  const commands = COMMAND_MODULES.flatMap((m) => m.commands);

  it('registers the commands in the documented tree order', () => {
    expect(commands.map((c) => c.words.join(' '))).toEqual(['version', 'scenario validate', 'suite validate', 'generated create', 'generated validate', 'evaluation manifest', 'evaluation run', 'evaluation verify', 'evaluation merge', 'evaluation status', 'shard plan', 'episode run', 'replay verify', 'statistics aggregate', 'statistics compare', 'score', 'score compare', 'leaderboard', 'scoring table', 'pack build', 'pack verify', 'operational validate', 'bundle create', 'bundle verify', 'bundle sign', 'keys create', 'keys show', 'result sign', 'result verify', 'report html', 'archive import', 'archive list', 'archive export', 'archive check', 'archive delete', 'serve']);
    expect(commandsUnder(commandTree()).map((c) => c.words.join(' '))).toEqual(commands.map((c) => c.words.join(' ')));
  });

  it('every command is well-formed: one-line texts, unique options, an example of itself', () => {
    const common = new Set(COMMON_OPTIONS.map((o) => o.name));
    for (const command of commands) {
      const label = command.words.join(' ');
      expect(command.summary).not.toMatch(/\n/);
      expect(command.description).not.toMatch(/\n/);
      const names = command.options.map((o) => o.name);
      expect(new Set(names).size, label).toBe(names.length);
      for (const option of command.options) {
        expect(common.has(option.name), `${label} --${option.name}`).toBe(false);
        expect(option.name).toMatch(/^[a-z][a-z0-9-]*$/);
        expect(option.description).not.toMatch(/\n/);
        // Capitals, or a shape of them: N|A..B, I/N.
        if (option.kind !== 'flag') expect(option.valueName).toMatch(/^[A-Z]+(?:(?:[/|]|\.\.)[A-Z]+)*$/);
      }
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) expect(example.startsWith(`emberbench ${label}`)).toBe(true);
    }
  });

  it('refuses a command registered twice or outside its group', () => {
    const version = COMMAND_MODULES[0]!;
    expect(() => buildCommandTree([version, version])).toThrow(/registered twice/);
    expect(() => buildCommandTree([{ ...version, group: 'other' }])).toThrow(/not in its module's group/);
  });
});
