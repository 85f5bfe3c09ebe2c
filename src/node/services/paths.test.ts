import { describe, expect, it } from 'vitest';
import { defaultArchivePath, userDataDir } from './paths.js';

describe('default archive path (Electron userData for "EMBER Workbench")', () => {
  it('Linux: $XDG_CONFIG_HOME, else ~/.config', () => {
    expect(defaultArchivePath({ platform: 'linux', env: { XDG_CONFIG_HOME: '/x/cfg' }, home: '/home/u' })).toBe('/x/cfg/EMBER Workbench/archive.sqlite');
    expect(defaultArchivePath({ platform: 'linux', env: {}, home: '/home/u' })).toBe('/home/u/.config/EMBER Workbench/archive.sqlite');
    expect(userDataDir({ platform: 'freebsd', env: { XDG_CONFIG_HOME: '' }, home: '/home/u' })).toBe('/home/u/.config/EMBER Workbench');
  });

  it('macOS: ~/Library/Application Support', () => {
    expect(defaultArchivePath({ platform: 'darwin', env: { XDG_CONFIG_HOME: '/ignored' }, home: '/Users/u' })).toBe('/Users/u/Library/Application Support/EMBER Workbench/archive.sqlite');
  });

  it('Windows: %APPDATA%', () => {
    expect(defaultArchivePath({ platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, home: 'C:\\Users\\u' })).toBe('C:\\Users\\u\\AppData\\Roaming\\EMBER Workbench\\archive.sqlite');
    expect(defaultArchivePath({ platform: 'win32', env: {}, home: 'C:\\Users\\u' })).toBe('C:\\Users\\u\\AppData\\Roaming\\EMBER Workbench\\archive.sqlite');
  });
});
