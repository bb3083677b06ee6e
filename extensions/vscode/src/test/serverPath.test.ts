import * as assert from 'assert';
import { ResolveInput, binaryNames, resolveServerPath } from '../serverPath';

function input(files: string[], overrides: Partial<ResolveInput> = {}): ResolveInput {
  const set = new Set(files);
  return {
    setting: '',
    extensionPath: '/ext',
    workspaceFolder: '/ws',
    platform: 'linux',
    env: { PATH: '/usr/local/bin:/usr/bin' },
    homeDir: '/home/me',
    isExecutable: (p) => set.has(p),
    ...overrides,
  };
}

describe('server path resolution', () => {
  it('prefers the setting', () => {
    const r = resolveServerPath(input(['/opt/kf', '/ext/server/kforecast', '/usr/bin/kforecast'], { setting: '/opt/kf' }));
    assert.deepStrictEqual(r, { ok: true, path: '/opt/kf', source: 'setting' });
  });

  it('expands ~ and resolves a relative setting against the workspace folder', () => {
    assert.deepStrictEqual(resolveServerPath(input(['/home/me/bin/kforecast'], { setting: '~/bin/kforecast' })), {
      ok: true,
      path: '/home/me/bin/kforecast',
      source: 'setting',
    });
    assert.deepStrictEqual(resolveServerPath(input(['/ws/target/debug/kforecast'], { setting: 'target/debug/kforecast' })), {
      ok: true,
      path: '/ws/target/debug/kforecast',
      source: 'setting',
    });
  });

  it('does not fall back silently when the setting points nowhere', () => {
    const r = resolveServerPath(input(['/usr/bin/kforecast'], { setting: '/nope/kforecast' }));
    assert.strictEqual(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /kforecast\.server\.path/);
      assert.match(r.message, /\/nope\/kforecast/);
    }
  });

  it('uses the bundled binary next', () => {
    const r = resolveServerPath(input(['/ext/server/kforecast', '/usr/bin/kforecast']));
    assert.deepStrictEqual(r, { ok: true, path: '/ext/server/kforecast', source: 'bundled' });
  });

  it('then searches PATH in order', () => {
    const r = resolveServerPath(input(['/usr/bin/kforecast', '/usr/local/bin/kforecast']));
    assert.deepStrictEqual(r, { ok: true, path: '/usr/local/bin/kforecast', source: 'path' });
  });

  it('explains what to do when nothing is found', () => {
    const r = resolveServerPath(input([]));
    assert.strictEqual(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /cannot find/);
      assert.match(r.message, /\.vsix for your platform/);
      assert.match(r.message, /kforecast\.server\.path/);
    }
  });

  it('handles Windows names and PATH separators', () => {
    assert.deepStrictEqual(binaryNames('win32', { PATHEXT: '.EXE;.CMD' }), ['kforecast.exe', 'kforecast.cmd']);
    const r = resolveServerPath(
      input(['C:\\tools\\kforecast.exe'], { platform: 'win32', env: { PATH: 'C:\\bin;C:\\tools', PATHEXT: '.EXE' }, extensionPath: 'C:\\ext' }),
    );
    assert.deepStrictEqual(r, { ok: true, path: 'C:\\tools\\kforecast.exe', source: 'path' });
  });
});
