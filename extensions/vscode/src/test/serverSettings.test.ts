// package.json and the settings mapping against the settings the server accepts,
// read from the server's Rust source (serverKeys.ts). When the server learns a new
// setting, these tests fail until the extension declares and forwards it.

import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SETTING_FOR, SENSITIVE, ServerSettings, buildServerSettings, settingFor } from '../settings';
import { LLM_RS, SETTINGS_RS, ServerKey, serverKeys } from './serverKeys';

interface Property {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  markdownDeprecationMessage?: string;
  scope?: string;
}

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { title: string; properties: Record<string, Property> }[] };
};
/** Every declared setting, `kforecast.forecast.device` → its schema (from all groups). */
const declared: Record<string, Property> = Object.assign({}, ...manifest.contributes.configuration.map((g) => g.properties));
/** The declared settings by the SERVER key they are sent as (`kforecast.confidenceThreshold` → kforecast.forecast.confidenceThreshold's schema). */
const serverName = new Map(Object.entries(SETTING_FOR).map(([server, vscode]) => [vscode, server]));
const props: Record<string, Property> = Object.fromEntries(
  Object.entries(declared).map(([k, v]) => {
    const key = k.replace(/^kforecast\./, '');
    return [`kforecast.${serverName.get(key) ?? key}`, v];
  }),
);

/** Server keys that are not a VS Code setting of their own, and what covers them. */
const COVERED_ELSEWHERE: Record<string, string> = {
  llm: 'the object the kforecast.llm.* settings are sent in',
  search: 'the object the kforecast.search.* settings are sent in',
  searchSeed: 'search.seed',
  'llm.url': 'llm.endpoint',
  // The server's older names: the extension moves a user's old values to the new settings once.
  llmEndpoint: 'llm.endpoint',
  searchBudget: 'search.budget',
};
/** Deprecated settings that are declared but sent folded into their replacement (none since 0.2: they are migrated). */
const FOLDED: Record<string, string> = {};
/** Settings of the extension itself, never sent to the server. */
const EXTENSION_ONLY = ['server.path', 'server.logLevel', 'trace.server', 'inlayHints.enable', 'lens.enable'];
/** Valid values for the settings whose default is "not set". */
const SAMPLES: Record<string, unknown> = { maxFileSize: 4096, cacheDir: '/tmp/kforecast-cache' };

/** The value at `llm.weight` → settings.llm.weight, `search.seed` → settings.search.seed, else settings[key]. */
function sent(settings: ServerSettings, key: string): unknown {
  const [head, tail] = key.split('.', 2) as [string, string | undefined];
  const v = (settings as Record<string, unknown>)[head];
  if (tail === undefined) return v;
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[tail] : undefined;
}

describe('settings the server accepts (parsed from its Rust source)', () => {
  let keys: ServerKey[] = [];
  let byKey = new Map<string, ServerKey>();
  before(function () {
    if (!fs.existsSync(path.join(repo, SETTINGS_RS)) || !fs.existsSync(path.join(repo, LLM_RS))) {
      console.log(`    (skipped: no server source at ${path.join(repo, SETTINGS_RS)})`);
      this.skip();
    }
    keys = serverKeys(repo);
    byKey = new Map(keys.map((k) => [k.key, k]));
  });

  it('parses the server source', () => {
    for (const k of ['confidenceThreshold', 'learnFromMeasurements', 'gpuWorkers', 'llm', 'llmEndpoint', 'llm.endpoint', 'llm.weight', 'search.budget', 'search.seed', 'searchBudget', 'cacheDir']) {
      assert.ok(byKey.has(k), `the parser did not find ${k} in the server source; found ${keys.map((x) => x.key).join(', ')}`);
    }
    assert.deepStrictEqual(
      { type: byKey.get('llm.timeoutMs')?.type, minimum: byKey.get('llm.timeoutMs')?.minimum, maximum: byKey.get('llm.timeoutMs')?.maximum },
      { type: 'integer', minimum: 100, maximum: 600000 },
    );
  });

  it('declares every server setting in package.json', () => {
    const missing = keys.filter((k) => !(k.key in COVERED_ELSEWHERE) && !(`kforecast.${k.key}` in props));
    assert.deepStrictEqual(
      missing.map((k) => `kforecast.${k.key} (${k.source})`),
      [],
      'the server accepts settings that package.json does not declare: add them to contributes.configuration, ' +
        'src/settings.ts (buildServerSettings) and extensions/nvim/lua/kforecast/config.lua',
    );
    for (const [key, by] of Object.entries(COVERED_ELSEWHERE)) {
      assert.ok(byKey.has(key), `COVERED_ELSEWHERE lists ${key}, which the server no longer accepts`);
      if (!by.includes(' ')) assert.ok(`kforecast.${by}` in props, `${key} is said to be covered by kforecast.${by}, which is not declared`);
    }
  });

  it('declares no setting the server does not know', () => {
    const unknown = Object.keys(props)
      .map((p) => p.replace(/^kforecast\./, ''))
      .filter((k) => !EXTENSION_ONLY.includes(k) && !byKey.has(k));
    assert.deepStrictEqual(unknown, [], 'package.json declares settings the server does not accept');
  });

  it('declares each setting with the server type and range', () => {
    for (const k of keys) {
      const prop = props[`kforecast.${k.key}`];
      if (!prop) continue;
      const types = ([] as string[]).concat(prop.type ?? []);
      if (k.type) {
        assert.ok(types.includes(k.type), `kforecast.${k.key}: package.json type ${JSON.stringify(prop.type)}, the server reads a ${k.type}`);
      }
      if (k.minimum !== undefined) assert.strictEqual(prop.minimum, k.minimum, `kforecast.${k.key}: minimum`);
      if (k.maximum !== undefined) assert.strictEqual(prop.maximum, k.maximum, `kforecast.${k.key}: maximum`);
    }
  });

  it('checks each value with the server type and range before sending it', () => {
    const wrong: Record<string, unknown> = { boolean: 'yes', integer: '1', number: '0.5', string: 42 };
    const only = (key: string, v: unknown) => buildServerSettings((k) => (k === key ? v : undefined));
    const named = (problems: string[], key: string) => problems.some((p) => p.startsWith(`kforecast.${settingFor(key)} `));
    for (const k of keys) {
      if (!(`kforecast.${k.key}` in props) || k.key in FOLDED) continue;
      if (k.type) {
        const { settings, problems } = only(k.key, wrong[k.type]);
        assert.ok(named(problems, k.key), `a ${typeof wrong[k.type]} for kforecast.${k.key} (the server reads a ${k.type}) was not reported: ${problems.join(' | ')}`);
        assert.strictEqual(sent(settings, k.key), undefined, `the wrong-typed kforecast.${k.key} was sent`);
      }
      const step = k.type === 'number' ? 0.5 : 1;
      for (const bound of [k.minimum, k.maximum]) {
        if (bound === undefined) continue;
        const { settings, problems } = only(k.key, bound);
        assert.deepStrictEqual(problems, [], `kforecast.${k.key} = ${bound} is in the server's range`);
        assert.strictEqual(sent(settings, k.key), bound, `kforecast.${k.key} = ${bound} was not sent`);
      }
      if (k.minimum !== undefined) assert.ok(named(only(k.key, k.minimum - step).problems, k.key), `kforecast.${k.key} = ${k.minimum - step} (below the server's minimum) was not reported`);
      if (k.maximum !== undefined) assert.ok(named(only(k.key, k.maximum + step).problems, k.key), `kforecast.${k.key} = ${k.maximum + step} (above the server's maximum) was not reported`);
    }
  });

  it('sends every declared server setting to the server', () => {
    const read = new Set<string>();
    const { settings, problems } = buildServerSettings((key) => {
      read.add(key);
      return key in SAMPLES ? SAMPLES[key] : props[`kforecast.${key}`]?.default;
    });
    assert.deepStrictEqual(problems, []);
    for (const k of keys) {
      if (!(`kforecast.${k.key}` in props)) continue;
      assert.ok(read.has(k.key), `buildServerSettings never reads kforecast.${k.key}`);
      if (k.key in FOLDED) continue;
      assert.notStrictEqual(sent(settings, k.key), undefined, `kforecast.${k.key} is not sent to the server: ${JSON.stringify(settings)}`);
    }
  });

  it('reads what sends data or names a secret from user settings only', () => {
    for (const key of SENSITIVE) {
      assert.strictEqual(declared[`kforecast.${key}`]?.scope, 'application', `kforecast.${key} must be "scope": "application"`);
    }
    // Nothing else that names a URL, a token's variable or runs kernels is left workspace-scoped.
    for (const [key, prop] of Object.entries(declared)) {
      if (/endpoint|apiKeyEnv|workers|autoVerify/i.test(key)) assert.ok(prop.scope === 'application' || prop.scope === 'machine', `${key} is workspace-scoped`);
    }
  });

  it('marks the folded settings deprecated and keeps the defaults "not set"', () => {
    for (const [key, by] of Object.entries(FOLDED)) {
      const prop = props[`kforecast.${key}`];
      assert.ok(prop?.markdownDeprecationMessage?.includes(`kforecast.${by}`), `kforecast.${key} should be deprecated in favour of kforecast.${by}`);
      assert.strictEqual(prop.default, null, `kforecast.${key} must default to null so that it does not override kforecast.${by}`);
    }
  });
});
