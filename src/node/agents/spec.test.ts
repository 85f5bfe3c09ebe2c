import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentError, UsageError } from '../../core/errors.js';
import { builtinAgentIds, parseAgentCommand, parseAgentSpec, resolveAgentModule } from './spec.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('parseAgentSpec', () => {
  it('accepts MODULE:EXPORT with relative ASCII module names and identifier paths', () => {
    expect(parseAgentSpec('my_agents:makeAgent')).toEqual({ kind: 'module', module: 'my_agents', exportName: 'makeAgent' });
    expect(parseAgentSpec('pkg/sub-dir/agent.v2.ts:factories.make')).toEqual({
      kind: 'module',
      module: 'pkg/sub-dir/agent.v2.ts',
      exportName: 'factories.make',
    });
    expect(parseAgentSpec('@scope/agents:$make_1')).toEqual({ kind: 'module', module: '@scope/agents', exportName: '$make_1' });
  });

  it.each([
    'no-colon',
    ':make',
    'mod:',
    'mod:a:b',
    'mod:1abc',
    'mod:a..b',
    'mod:a.',
    'mod:make-agent',
    '/abs/path:make',
    '../up:make',
    'a/../b:make',
    './mod:make',
    'a//b:make',
    'mod/:make',
    'C:\\agents\\mod.js:make',
    'mód:make',
    'mod:máke',
    'my agents:make',
    'https://example.com/a.js:make',
  ])('rejects %j as a UsageError', (text) => {
    const error = thrown(() => parseAgentSpec(text));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(`malformed --agent "${text}"`);
  });

  it('accepts known builtin ids and lists the ids for an unknown one', () => {
    expect(builtinAgentIds().length).toBeGreaterThan(0);
    for (const id of builtinAgentIds()) expect(parseAgentSpec(`builtin:${id}`)).toEqual({ kind: 'builtin', id });
    for (const text of ['builtin:no-such-baseline', 'builtin:', 'builtin:ALWAYS-STAY']) {
      const error = thrown(() => parseAgentSpec(text));
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(`unknown builtin agent "${text.slice(8)}"; builtin agents: ${builtinAgentIds().join(', ')}`);
    }
  });
});

describe('parseAgentCommand', () => {
  it.each([
    ['python3 agent.py', ['python3', 'agent.py']],
    ['  python3\t agent.py  --mode  fast ', ['python3', 'agent.py', '--mode', 'fast']],
    [`prog 'a b' "c d" e\\ f`, ['prog', 'a b', 'c d', 'e f']],
    [`prog 'it"s' "say \\"hi\\"" "back\\\\slash" "keep\\n"`, ['prog', 'it"s', 'say "hi"', 'back\\slash', 'keep\\n']],
    [`prog '' "" x`, ['prog', '', '', 'x']],
    [`prog a'b'"c"d`, ['prog', 'abcd']],
    [`prog '$HOME;|&>' \\$x`, ['prog', '$HOME;|&>', '$x']],
  ])('splits %j', (text, argv) => {
    expect(parseAgentCommand(text)).toEqual({ kind: 'command', argv });
  });

  it.each(['', '   ', `prog 'open`, 'prog "open', 'prog trailing\\', "'' arg"])('rejects %j as a UsageError', (text) => {
    expect(thrown(() => parseAgentCommand(text))).toBeInstanceOf(UsageError);
  });
});

describe('resolveAgentModule', () => {
  let root: string;
  let dirA: string;
  let dirB: string;
  const write = (path: string, text = 'export const x = 1;\n'): void => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ember-resolve-')));
    dirA = join(root, 'a');
    dirB = join(root, 'b');
    write(join(dirA, 'both.mjs'));
    write(join(dirA, 'both.js'));
    write(join(dirB, 'both.mjs'));
    write(join(dirB, 'only_b.ts'));
    write(join(dirA, 'sub', 'deep.cjs'));
    write(join(dirA, 'plain.js'));
    write(join(dirA, 'pkg_index', 'index.js'));
    write(join(dirA, 'pkg_main', 'package.json'), JSON.stringify({ main: 'lib/main.js' }));
    write(join(dirA, 'pkg_main', 'lib', 'main.js'));
    write(join(dirA, 'pkg_exports', 'package.json'), JSON.stringify({ main: 'main.js', exports: { '.': { require: './x.cjs', import: './esm/x.mjs' } } }));
    write(join(dirA, 'pkg_exports', 'esm', 'x.mjs'));
    write(join(dirA, 'pkg_exports', 'main.js'));
    write(join(dirA, 'pkg_escape', 'package.json'), JSON.stringify({ exports: '../plain.js' }));
    write(join(dirA, 'pkg_escape', 'index.mjs'));
    write(join(dirA, 'node_modules', '@scope', 'agent', 'package.json'), JSON.stringify({ exports: './dist/agent.js' }));
    write(join(dirA, 'node_modules', '@scope', 'agent', 'dist', 'agent.js'));
    write(join(root, 'cwd', 'in_cwd.mjs'));
    write(join(root, 'cwd', 'node_modules', 'cwd_pkg', 'index.js'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('resolves names, extensions, packages and node_modules inside the agent paths', () => {
    expect(resolveAgentModule('both', [dirA, dirB])).toBe(join(dirA, 'both.mjs'));
    expect(resolveAgentModule('both', [dirB, dirA])).toBe(join(dirB, 'both.mjs'));
    expect(resolveAgentModule('both.js', [dirA])).toBe(join(dirA, 'both.js'));
    expect(resolveAgentModule('only_b', [dirA, dirB])).toBe(join(dirB, 'only_b.ts'));
    expect(resolveAgentModule('sub/deep', [dirA])).toBe(join(dirA, 'sub', 'deep.cjs'));
    expect(resolveAgentModule('pkg_index', [dirA])).toBe(join(dirA, 'pkg_index', 'index.js'));
    expect(resolveAgentModule('pkg_main', [dirA])).toBe(join(dirA, 'pkg_main', 'lib', 'main.js'));
    expect(resolveAgentModule('pkg_exports', [dirA])).toBe(join(dirA, 'pkg_exports', 'esm', 'x.mjs'));
    // An "exports" target outside the package is ignored.
    expect(resolveAgentModule('pkg_escape', [dirA])).toBe(join(dirA, 'pkg_escape', 'index.mjs'));
    expect(resolveAgentModule('@scope/agent', [dirA])).toBe(join(dirA, 'node_modules', '@scope', 'agent', 'dist', 'agent.js'));
  });

  it('reports a module that is not found, naming the dirs as given', () => {
    const error = thrown(() => resolveAgentModule('missing', [dirA, dirB]));
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).failure).toBe('model_error');
    expect((error as AgentError).message).toBe(`cannot import agent module missing: not found in --agent-path dirs ${dirA}, ${dirB}; agent modules are JavaScript or TypeScript (.mjs, .js, .ts, .mts, .cjs); a Python agent runs with --agent-command "python3 FILE.py" (docs/agents.md)`);
    expect((thrown(() => resolveAgentModule('plain.mjs', [dirA])) as AgentError).message).toContain('not found');
    expect((thrown(() => resolveAgentModule('plain', [])) as AgentError).message).toBe(
      'cannot import agent module plain: no --agent-path directory was given; agent modules are JavaScript or TypeScript (.mjs, .js, .ts, .mts, .cjs); a Python agent runs with --agent-command "python3 FILE.py" (docs/agents.md)',
    );
  });

  it('a Python module (the spec example my_agents:make_agent) gets the --agent-command hint naming its file', () => {
    writeFileSync(join(dirA, 'my_agents.py'), 'def make_agent(): pass\n');
    mkdirSync(join(dirB, 'my_pkg'), { recursive: true });
    writeFileSync(join(dirB, 'my_pkg', 'agents.py'), 'def make_agent(): pass\n');
    expect((thrown(() => resolveAgentModule('my_agents', [dirA])) as AgentError).message).toBe(
      `cannot import agent module my_agents: not found in --agent-path dirs ${dirA}; ${join(dirA, 'my_agents.py')} is a Python file, but agent modules are JavaScript or TypeScript (.mjs, .js, .ts, .mts, .cjs): run a Python agent with --agent-command "python3 ${join(dirA, 'my_agents.py')}" (docs/agents.md)`,
    );
    expect((thrown(() => resolveAgentModule('my_pkg.agents', [dirA, dirB])) as AgentError).message).toContain(
      `${join(dirB, 'my_pkg', 'agents.py')} is a Python file, but agent modules are JavaScript or TypeScript`,
    );
  });

  it('never finds a module in the current directory or on NODE_PATH', () => {
    const cwd = process.cwd();
    const nodePath = process.env.NODE_PATH;
    process.chdir(join(root, 'cwd'));
    process.env.NODE_PATH = join(root, 'cwd', 'node_modules');
    try {
      for (const module of ['in_cwd', 'in_cwd.mjs', 'cwd_pkg']) {
        expect(thrown(() => resolveAgentModule(module, [dirA, dirB]))).toBeInstanceOf(AgentError);
        expect(thrown(() => resolveAgentModule(module, []))).toBeInstanceOf(AgentError);
      }
      // Only an explicit agent path (here '.') makes the current directory count.
      expect(resolveAgentModule('in_cwd', ['.'])).toBe(join(root, 'cwd', 'in_cwd.mjs'));
    } finally {
      process.chdir(cwd);
      if (nodePath === undefined) delete process.env.NODE_PATH;
      else process.env.NODE_PATH = nodePath;
    }
  });
});
