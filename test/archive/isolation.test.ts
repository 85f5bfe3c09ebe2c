// The isolation level in the app (docs/agents.md "Sandbox"): a trial run
// from the services carries how its agent ran, in trials.get and
// trials.list: a builtin `in_process`, a module agent the level of the
// sandbox probe its host makes (`sandboxed` with bubblewrap, else `none`);
// an imported CLI result takes the level of the operational record given
// with it, which is stored with the trial.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOperationalRecordText } from '../../src/core/scoring/operational.js';
import { dispatch } from '../../src/node/services/dispatch.js';
import { runCli } from '../cli/run-cli.js';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/node/agents/sandbox.js';
import { EVAL_AGENTS } from '../eval/kit.js';
import { PUBLIC_SUITE, openServices, tempDir } from './helpers.js';

const tmp = tempDir('ember-isolation-app-');
afterAll(() => tmp.remove());

describe('trial isolation in the services', () => {
  it('stores the level of each run and returns it with the trial row', async () => {
    const h = await openServices(join(tmp.dir, 'archive.sqlite'));
    try {
      const { handlers } = h.services;
      const [suite] = await handlers['suites.list']({});
      const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
      const common = { manifestHash: manifest.manifestHash, packDigest: null, jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 1 };

      const builtin = await handlers['runs.start']({ ...common, agent: { kind: 'builtin', id: 'always-stay' }, modelId: 'stay' });
      expect((await h.ended(builtin.trialId)).state).toBe('complete');
      const module = await handlers['runs.start']({ ...common, agent: { kind: 'module', module: 'eval_agents', exportName: 'makeGreedy', agentPaths: [EVAL_AGENTS] }, modelId: 'greedy' });
      const end = await h.ended(module.trialId);
      expect(end.error, end.error?.message).toBeUndefined();
      expect(end.state).toBe('complete');

      expect((await handlers['trials.get']({ trialId: builtin.trialId })).trial.isolation).toBe('in_process');
      const moduleDetail = await handlers['trials.get']({ trialId: module.trialId });
      expect(moduleDetail.trial.isolation).toBe(probeSandbox().isolation);
      // The module agent's operational record is stored with the trial: its level, no tokens, no cost.
      expect(moduleDetail.operational).toMatchObject({ isolation: probeSandbox().isolation, provider_id: 'local', model_id: 'greedy', input_tokens: 0, cost: null });
      expect((await handlers['trials.get']({ trialId: builtin.trialId })).operational).toBeNull();
      const list = await handlers['trials.list']({ sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 10 });
      expect(list.rows.map((r) => [r.trialId, r.isolation])).toEqual([
        [builtin.trialId, 'in_process'],
        [module.trialId, probeSandbox().isolation],
      ]);
    } finally {
      await h.services.dispose();
    }
  }, 180_000);

  it('imports a CLI result with its operational record: the record is stored and its level is the trial\'s', async () => {
    // The CLI run without a sandbox (EMBER_AGENT_SANDBOX=off): the record says `none`.
    const manifest = join(tmp.dir, 'manifest.json');
    const out = join(tmp.dir, 'greedy.json');
    expect(runCli(['evaluation', 'manifest', '--suite', PUBLIC_SUITE, '--seed', '0', '--out', manifest]).status).toBe(0);
    const run = runCli(['evaluation', 'run', '--suite', PUBLIC_SUITE, '--manifest', manifest, '--model-id', 'greedy', '--agent', 'eval_agents:makeGreedy', '--agent-path', EVAL_AGENTS, '--out', out, '--json'], {
      env: { ...process.env, EMBER_AGENT_SANDBOX: 'off' },
    });
    expect(run.status, run.stderr).toBe(0);
    const recordPath = join(tmp.dir, 'greedy.operational.json');
    const recordText = readFileSync(recordPath, 'utf8');
    expect(parseOperationalRecordText(recordText, recordPath).isolation).toBe('none');

    const h = await openServices(join(tmp.dir, 'import.sqlite'));
    try {
      const { handlers } = h.services;
      const text = readFileSync(out, 'utf8');
      // A record of another model is refused, and nothing is written.
      const otherModel = recordText.replace('"model_id":"greedy"', '"model_id":"other"');
      const refused = await dispatch(handlers, 'archive.import', { fileName: 'greedy.json', text, operational: { fileName: 'greedy.operational.json', text: otherModel } });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('the operational record is of model "other"') } });
      expect((await handlers['trials.list']({ sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 10 })).total).toBe(0);

      const plain = await handlers['archive.import']({ fileName: 'greedy.json', text });
      expect((await handlers['trials.get']({ trialId: plain.trialId })).trial.isolation).toBeNull();
    } finally {
      await h.services.dispose();
    }

    const h2 = await openServices(join(tmp.dir, 'import2.sqlite'));
    try {
      const { handlers } = h2.services;
      const imported = await handlers['archive.import']({ fileName: 'greedy.json', text: readFileSync(out, 'utf8'), operational: { fileName: 'greedy.operational.json', text: recordText } });
      expect(imported.duplicate).toBe(false);
      const detail = await handlers['trials.get']({ trialId: imported.trialId });
      expect(detail.trial.isolation).toBe('none');
      expect(detail.operational).toEqual(JSON.parse(recordText));
    } finally {
      await h2.services.dispose();
    }
  }, 180_000);
});
