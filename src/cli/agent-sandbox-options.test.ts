import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { cpuSecondsArgument, envNamesArgument, memoryArgument } from './agent-sandbox-options.js';

describe('agent sandbox options', () => {
  it('--agent-memory takes bytes or binary units', () => {
    expect(memoryArgument('4G')).toBe(4 * 1024 ** 3);
    expect(memoryArgument('4GiB')).toBe(4 * 1024 ** 3);
    expect(memoryArgument('512m')).toBe(512 * 1024 ** 2);
    expect(memoryArgument('67108864')).toBe(64 * 1024 ** 2);
    expect(memoryArgument('1T')).toBe(1024 ** 4);
    for (const bad of ['', '0', '63M', '2T', '4 G', '4.5G', '-1G', '4X', '0x10']) {
      expect(() => memoryArgument(bad), bad).toThrow(UsageError);
    }
    expect(() => memoryArgument('63M')).toThrow('--agent-memory: must be a size from 64M to 1T, in bytes or with K, M, G or T (such as 512M or 4G), not "63M"');
  });

  it('--agent-cpu-seconds is an integer number of seconds up to a day', () => {
    expect(cpuSecondsArgument(undefined)).toBeUndefined();
    expect(cpuSecondsArgument('30')).toBe(30);
    for (const bad of ['0', '01', '1.5', '86401', 'x']) expect(() => cpuSecondsArgument(bad), bad).toThrow(UsageError);
  });

  it('--agent-env takes names, each once', () => {
    expect(envNamesArgument(['OPENAI_API_KEY', '_X1'])).toEqual(['OPENAI_API_KEY', '_X1']);
    expect(() => envNamesArgument(['A=1'])).toThrow('give the name, not NAME=value');
    expect(() => envNamesArgument(['A', 'A'])).toThrow('--agent-env: A is given twice');
  });
});
