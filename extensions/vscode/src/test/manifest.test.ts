import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SERVER_COMMANDS } from '../commands';
import { buildServerSettings } from '../settings';

interface Manifest {
  activationEvents: string[];
  main: string;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it('declares a setting for every key the settings mapping reads', () => {
    const read: string[] = [];
    buildServerSettings((key) => {
      read.push(key);
      return undefined;
    });
    const props = manifest.contributes.configuration.properties;
    for (const key of read) assert.ok(`kforecast.${key}` in props, `package.json lacks kforecast.${key}`);
    for (const key of ['kforecast.serverPath', 'kforecast.serverLogLevel', 'kforecast.trace.server']) assert.ok(key in props, key);
  });

  it('has defaults that map cleanly', () => {
    const props = manifest.contributes.configuration.properties;
    const { problems } = buildServerSettings((key) => props[`kforecast.${key}`]?.default);
    assert.deepStrictEqual(problems, []);
  });

  it('contributes the four server commands with their titles', () => {
    const titles = new Map(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.strictEqual(titles.get(SERVER_COMMANDS.verify), 'kforecast: Verify kernel on GPU');
    assert.strictEqual(titles.get(SERVER_COMMANDS.search), 'kforecast: Search faster variants');
    assert.strictEqual(titles.get(SERVER_COMMANDS.setBaseline), 'kforecast: Set baseline');
    assert.strictEqual(titles.get(SERVER_COMMANDS.showForecast), 'kforecast: Show forecast details');
  });

  it('activates on CUDA and Python files', () => {
    assert.deepStrictEqual(manifest.activationEvents.sort(), ['onLanguage:cuda', 'onLanguage:cuda-cpp', 'onLanguage:python']);
    assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', manifest.main)), `${manifest.main} is not built`);
  });
});
