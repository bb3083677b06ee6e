import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SERVER_COMMANDS } from '../commands';
import { RENAMED, buildServerSettings, settingFor } from '../settings';

interface Manifest {
  activationEvents: string[];
  main: string;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { title: string; properties: Record<string, { default?: unknown; scope?: string }> }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
  capabilities?: { untrustedWorkspaces?: { supported: boolean | string; restrictedConfigurations?: string[] } };
  icon?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const props: Record<string, { default?: unknown; scope?: string }> = Object.assign({}, ...manifest.contributes.configuration.map((g) => g.properties));

describe('package.json', () => {
  it('declares a setting for every key the settings mapping reads', () => {
    const read: string[] = [];
    buildServerSettings((key) => {
      read.push(key);
      return undefined;
    });
    for (const key of read) assert.ok(`kforecast.${settingFor(key)}` in props, `package.json lacks kforecast.${settingFor(key)}`);
    for (const key of ['kforecast.server.path', 'kforecast.server.logLevel', 'kforecast.trace.server', 'kforecast.inlayHints.enable', 'kforecast.lens.enable']) {
      assert.ok(key in props, key);
    }
  });

  it('has defaults that map cleanly', () => {
    const { problems } = buildServerSettings((key) => props[`kforecast.${settingFor(key)}`]?.default);
    assert.deepStrictEqual(problems, []);
  });

  it('contributes the four server commands with their titles', () => {
    const titles = new Map(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.strictEqual(titles.get(SERVER_COMMANDS.verify), 'kforecast: Verify kernel on GPU');
    assert.strictEqual(titles.get(SERVER_COMMANDS.search), 'kforecast: Search faster variants');
    assert.strictEqual(titles.get(SERVER_COMMANDS.setBaseline), 'kforecast: Set baseline');
    assert.strictEqual(titles.get(SERVER_COMMANDS.showForecast), 'kforecast: Show forecast details');
  });

  it('activates on CUDA and Python files, from one bundled file', () => {
    assert.deepStrictEqual(manifest.activationEvents.sort(), ['onLanguage:cuda', 'onLanguage:cuda-cpp', 'onLanguage:python']);
    assert.strictEqual(manifest.main, './dist/extension.js');
    assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', manifest.main)), `${manifest.main} is not built (npm run bundle)`);
  });

  it('groups its settings under rust-analyzer-style names and declares no old flat name', () => {
    for (const old of [...Object.keys(RENAMED), 'llmEndpoint']) assert.ok(!(`kforecast.${old}` in props), `kforecast.${old} is still declared`);
    for (const key of Object.keys(props)) assert.match(key, /^kforecast\.[a-zA-Z]+\.[A-Za-z.]+$/, `${key} is not grouped`);
    assert.strictEqual(props['kforecast.inlayHints.enable'].default, true);
    assert.strictEqual(props['kforecast.lens.enable'].default, false);
  });

  it('shows its commands only for files that hold kernels, and runs kernels only in trusted workspaces', () => {
    for (const item of manifest.contributes.menus.commandPalette) {
      assert.match(item.when ?? '', /^kforecast\.kernelFile\b/, `${item.command} is shown in every file`);
      if (item.command === 'kforecast.verify' || item.command === 'kforecast.search') assert.match(item.when ?? '', /isWorkspaceTrusted/);
    }
  });

  it('declares its untrusted-workspace behaviour and an icon', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.strictEqual(untrusted?.supported, 'limited');
    assert.ok(untrusted?.restrictedConfigurations?.includes('kforecast.server.path'));
    assert.ok(manifest.icon && fs.existsSync(path.resolve(__dirname, '..', '..', manifest.icon)), 'no icon');
  });
});
