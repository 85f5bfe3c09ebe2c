import { describe, expect, test } from 'vitest';
import { EmberError } from '../../core/errors.js';
import { dispatch, errorValue, type Handlers } from './dispatch.js';

// Schema checks answer before any handler runs.
const noHandlers = {} as Handlers;
const HEX = 'a'.repeat(64);

async function refused(name: string, input: unknown) {
  const result = await dispatch(noHandlers, name, input);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

describe('refused input, as people read it', () => {
  test('an empty module names the Module field in a sentence, not the schema library’s text', async () => {
    const error = await refused('runs.start', { manifestHash: HEX, agent: { kind: 'module', module: '', exportName: 'makeAgent', agentPaths: ['/a'] }, modelId: 'm', jobs: 1 });
    expect(error).toEqual({ kind: 'bad_request', field: 'agent.module', message: 'Module is required: it is empty.' });
  });

  test('no internal names: agent folders, output folders, batch seed, procedure names', async () => {
    const paths = await refused('runs.start', { manifestHash: HEX, agent: { kind: 'module', module: 'm', exportName: 'makeAgent', agentPaths: [] }, modelId: 'm', jobs: 1 });
    expect(paths.message).toBe('Agent folders needs at least one entry.');
    expect((await refused('archive.export', { trialId: 1, outDir: '' })).message).toBe('New folder is required: it is empty.');
    expect((await refused('generated.create', { configText: '{}', batchSeed: '' })).message).toBe('Batch seed is required: it is empty.');
    expect((await refused('suites.get', { suiteHash: 'x' })).message).toBe('Suite must be 64 lowercase hex digits.');
    for (const e of [paths, await refused('runs.start', {})]) expect(e.message).not.toMatch(/runs\.start|agent\.|Too small|>=/);
  });

  test('a service error’s leading field is written as its label', () => {
    const value = errorValue(new EmberError('usage', 'batchSeed: must be a decimal string', { field: 'batchSeed' }));
    expect(value).toEqual({ ok: false, error: { kind: 'usage', field: 'batchSeed', message: 'Batch seed: must be a decimal string' } });
    const outDir = errorValue(new EmberError('output', 'outDir: /x is not empty', { field: 'outDir' }));
    expect(!outDir.ok && outDir.error.message).toBe('New folder: /x is not empty');
  });
});
