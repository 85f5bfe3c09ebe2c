import { describe, expect, it } from 'vitest';
import { inferenceConfigDigest, operationalRecordText, parseOperationalRecordText } from '../../core/scoring/operational.js';
import { localAgentConfig, localTrialRecord, portableArgument } from './local-operational.js';

describe('a local agent\'s operational record', () => {
  it('keeps the machine out of a command\'s arguments', () => {
    expect(portableArgument('python3', ['/home/u/agents'])).toBe('python3');
    expect(portableArgument('./agent.py', [])).toBe('./agent.py');
    expect(portableArgument('/home/u/agents/v1/agent.py', ['/home/u/agents'])).toBe('v1/agent.py');
    expect(portableArgument('/home/u/elsewhere/agent.py', ['/home/u/agents'])).toBe('agent.py');
    expect(portableArgument('/usr/bin/python3', [])).toBe('python3');
    expect(portableArgument('/home/u/agents', ['/home/u/agents'])).toBe('agents');
  });

  it('digests the configuration as SHA-256 of its canonical JSON (vectors from Python hashlib)', () => {
    const module = localAgentConfig({ kind: 'module', module: 'my_agents', exportName: 'makeAgent' }, ['/anywhere'], 10_000);
    expect(inferenceConfigDigest(module)).toBe('a4c3675d0b0f9c73e1dd130f20cb4ed074b8c03358b6a1b5a7a31e01c46cdf42');
    const command = localAgentConfig({ kind: 'command', argv: ['python3', '/srv/x/agents/agent.py', '--fast'] }, ['/srv/x'], 300);
    expect(command).toEqual({ act_timeout_ms: 300, agent_config_version: '1.0', argv: ['python3', 'agents/agent.py', '--fast'], kind: 'command' });
    expect(inferenceConfigDigest(command)).toBe('b0c74dfeeaa11a891fea6d908c54199ad8716f432e95313cbbe7c5fc76c536c4');
  });

  const input = {
    modelId: 'm',
    spec: { kind: 'module', module: 'a', exportName: 'b' },
    agentPaths: [],
    actTimeoutMs: 1000,
    isolation: 'sandboxed',
    episodes: 4,
    timeouts: 1,
    wallMs: 1234.56,
  } as const;

  it('has the isolation level, wall time to the millisecond, no tokens and no cost', () => {
    const record = localTrialRecord(input)!;
    expect(record).toMatchObject({ provider_id: 'local', isolation: 'sandboxed', latency_seconds: '1.235', episodes: 4, timeouts: 1, input_tokens: 0, output_tokens: 0, cost: null, retries: 0 });
    expect(parseOperationalRecordText(operationalRecordText(record), 'x')).toEqual(record);
    expect(localTrialRecord({ ...input, isolation: 'none' })!.isolation).toBe('none');
  });

  it('is absent for a result without episodes', () => {
    expect(localTrialRecord({ ...input, episodes: 0, timeouts: 0 })).toBeNull();
  });
});
