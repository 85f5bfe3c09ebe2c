import { beforeAll, describe, expect, it } from 'vitest';
import { buildTinyResult, editResultText, type BuiltResult } from '../../../test/eval/kit.js';
import { parseResultText } from '../../core/eval/result.js';
import { runSteps, type Steps } from '../../core/steps.js';
import { parseResultTextSteps } from './result-text-steps.js';

let built: BuiltResult;
beforeAll(async () => {
  built = await buildTinyResult(['1', '7']);
});

function stepsOf(text: string): Steps<unknown> {
  return parseResultTextSteps(text, Buffer.from(text, 'utf8'), 'result.json');
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return String(error);
  }
  return 'no error';
}

describe('parseResultTextSteps', () => {
  it('gives the value of parseResultText, a step per episode at least', () => {
    const steps = stepsOf(built.text);
    let yielded = 0;
    let next = steps.next();
    for (; next.done !== true; next = steps.next()) yielded++;
    expect(next.value).toEqual(parseResultText(built.text, 'result.json'));
    expect(yielded).toBeGreaterThanOrEqual(built.result.episodes.length);
  });

  it('keeps the key order of the whole-text value', () => {
    const value = runSteps(stepsOf(built.text)) as object;
    expect(Object.keys(value)).toEqual(Object.keys(parseResultText(built.text, 'result.json')));
  });

  // Each refused text is refused with the whole-text reader's own message.
  const bad: [string, (text: string) => string][] = [
    ['pretty-printed', (t) => JSON.stringify(JSON.parse(t), null, 1) + '\n'],
    ['no final LF', (t) => t.slice(0, -1)],
    ['truncated inside the episodes', (t) => t.slice(0, t.length >> 1)],
    ['a wrong field in an episode', (t) => editResultText(t, (v) => (v.episodes[1].index = 'one'))],
    ['an unknown field in an episode', (t) => editResultText(t, (v) => (v.episodes[0].extra = 1))],
    ['a wrong field after the episodes', (t) => editResultText(t, (v) => (v.model_id = 7))],
    ['both wrong: the episode is named first, as the whole reader does', (t) => editResultText(t, (v) => ((v.episodes[0].index = -1), (v.failures = 'none')))],
    ['a non-ASCII character', (t) => t.replace('"model_id":"kit-model"', '"model_id":"kit-modèle"')],
    ['a space between episodes', (t) => t.replace('},{', '}, {')],
  ];
  it.each(bad)('refuses %s with the whole-text error', (_name, edit) => {
    const text = edit(built.text);
    const whole = errorOf(() => parseResultText(text, 'result.json'));
    expect(whole).not.toBe('no error');
    expect(errorOf(() => runSteps(stepsOf(text)))).toBe(whole);
  });

  it('accepts a non-ASCII model ID as canonical JSON writes it (escaped), as the whole reader does', () => {
    const text = editResultText(built.text, (v) => (v.model_id = 'modèle'));
    expect(runSteps(stepsOf(text))).toEqual(parseResultText(text, 'result.json'));
  });
});
