import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { configFault, formatConfig, getAt, numberInput, pathText, readConfig, setAt, type ConfigObject } from './generate-form.js';

const DEFAULT_TEXT = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'scenarios', 'generated', 'default.json'), 'utf8');

describe('generate form helpers', () => {
  test('the shipped default configuration formats back to its own bytes', () => {
    const read = readConfig(DEFAULT_TEXT);
    if (!read.ok) throw new Error(read.message);
    expect(formatConfig(read.value)).toBe(DEFAULT_TEXT);
  });

  test('reading refuses what is not a JSON object, with the reason', () => {
    expect(readConfig('[1]')).toEqual({ ok: false, message: 'the configuration must be a JSON object' });
    expect(readConfig('{').ok).toBe(false);
  });

  test('setAt replaces, adds and removes without touching the original', () => {
    const root = { families: [{ family: 'a', rows: [1, 2] }] } as ConfigObject;
    const changed = setAt(root, ['families', 0, 'rows', 1], 9);
    expect(getAt(changed, ['families', 0, 'rows'])).toEqual([1, 9]);
    expect(getAt(root, ['families', 0, 'rows'])).toEqual([1, 2]);
    expect(getAt(setAt(root, ['families', 1], { family: 'b' }), ['families', 1, 'family'])).toBe('b');
    expect(getAt(setAt(root, ['families', 0], undefined), ['families'])).toEqual([]);
    expect(getAt(root, ['families', 3, 'rows'])).toBeUndefined();
  });

  test('numeric controls write integers, and anything else as typed', () => {
    expect(numberInput(' 12 ')).toBe(12);
    expect(numberInput('-3')).toBe(-3);
    expect(numberInput('')).toBe('');
    expect(numberInput('1.5')).toBe('1.5');
  });

  test('a fault matches its control, the controls inside it, and both ends of a range', () => {
    const error = (field: string) => ({ kind: 'usage' as const, message: 'm', field });
    expect(pathText(['families', 2, 'rows', 0])).toBe('families[2].rows[0]');
    expect(configFault(error('configText.families[2].rows[0]'), ['families', 2, 'rows', 0])).toBe(true);
    expect(configFault(error('configText.families[2].rows[0]'), ['families', 2, 'rows', 1])).toBe(false);
    expect(configFault(error('configText.families[2].rows[0]'), ['families', 2])).toBe(true);
    expect(configFault(error('configText.families[2].rows'), ['families', 2, 'rows', 1])).toBe(true);
    expect(configFault(error('configText.families[2].people'), ['families', 2, 'count'])).toBe(false);
    expect(configFault(error('configText.families[12]'), ['families', 1])).toBe(false);
    expect(configFault(error('batchSeed'), ['families', 2])).toBe(false);
    expect(configFault(null, ['families'])).toBe(false);
  });
});
