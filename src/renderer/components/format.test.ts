import { describe, expect, test } from 'vitest';
import { splitSeeds } from '../views/manifests/seeds.js';
import { count, duration, factor, people, points } from './format.js';

describe('display formatting', () => {
  test('points rounds an exact score as the CLI summary does (half even, one decimal)', () => {
    expect(points('1/4')).toBe('0.2');
    expect(points('3/4')).toBe('0.8');
    expect(points('111/2')).toBe('55.5');
    expect(points('55.75')).toBe('55.8');
    expect(points(null)).toBe('n/a');
    expect(factor('2/3')).toBe('0.667');
  });

  test('people are counted in whole people, and counts agree with their noun', () => {
    expect(people('2651')).toBe('2,651');
    expect(people('5302/2')).toBe('2,651');
    expect(people('5303/2')).toBe('2651.5');
    expect(people(null)).toBe('n/a');
    expect(count(1, 'exit cell')).toBe('1 exit cell');
    expect(count(3, 'exit cell')).toBe('3 exit cells');
  });

  test('durations read as a person would say them', () => {
    expect(duration(4_400)).toBe('4 s');
    expect(duration(125_000)).toBe('2 min 5 s');
    expect(duration(3_720_000)).toBe('1 h 2 min');
    expect(duration(-1)).toBe('–');
  });

  test('the seeds box splits on commas, spaces and lines and keeps ranges whole', () => {
    expect(splitSeeds(' 0..29, 31\n40;41 ')).toEqual(['0..29', '31', '40', '41']);
    expect(splitSeeds('  ')).toEqual([]);
  });
});
