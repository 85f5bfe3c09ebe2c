import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { captureIO } from './io.js';
import { humanReport, jsonReport, writeFailure } from './output.js';

describe('report formatting', () => {
  const report = {
    command: 'suite validate',
    suite_id: 's',
    scenario_count: 2,
    verified: true,
    scenarios: [
      { scenario_id: 'a', scenario_hash: 'h1' },
      { scenario_id: 'b', scenario_hash: 'h2' },
    ],
  };

  it('--json: canonical JSON (sorted keys, no whitespace) plus LF', () => {
    expect(jsonReport(report)).toBe(
      '{"command":"suite validate","scenario_count":2,"scenarios":[{"scenario_hash":"h1","scenario_id":"a"},{"scenario_hash":"h2","scenario_id":"b"}],"suite_id":"s","verified":true}\n',
    );
    expect(jsonReport({ command: 'x', title: 'caf\u00e9' })).toBe('{"command":"x","title":"caf\\u00e9"}\n');
  });

  it('human mode: key: value lines in report order, one line per list item', () => {
    expect(humanReport(report)).toBe(
      [
        'command: suite validate',
        'suite_id: s',
        'scenario_count: 2',
        'verified: true',
        'scenarios:',
        '  - scenario_id: a, scenario_hash: h1',
        '  - scenario_id: b, scenario_hash: h2',
        '',
      ].join('\n'),
    );
  });

  it('failure in JSON mode: one line on stderr, nothing on stdout', () => {
    const io = captureIO();
    expect(writeFailure(new ValidationError('bad "file"'), { json: true, debug: false }, io)).toBe(3);
    expect(io.out()).toBe('');
    expect(io.err()).toBe('{"error":{"exit_code":3,"kind":"validation","message":"bad \\"file\\""}}\n');
  });

  it('failure in human mode: emberbench: error: MESSAGE, and a stack only with --debug', () => {
    const io = captureIO();
    writeFailure(new ValidationError('bad'), { json: false, debug: false }, io);
    expect(io.err()).toBe('emberbench: error: bad\n');
    const debug = captureIO();
    writeFailure(new ValidationError('bad'), { json: false, debug: true }, debug);
    const lines = debug.err().split('\n');
    expect(lines[0]).toBe('emberbench: error: bad');
    expect(lines[1]).toBe('ValidationError: bad');
    expect(lines[2]).toMatch(/^\s+at /);
  });
});
