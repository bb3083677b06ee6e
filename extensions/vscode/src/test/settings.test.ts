import * as assert from 'assert';
import { buildServerSettings, didChangeConfigurationParams, migrationNotice, planMigration, restrictForUntrusted, serverEnvironment, settingFor } from '../settings';

const reader = (values: Record<string, unknown>) => (key: string) => values[key];

describe('settings mapping', () => {
  it('maps the defaults as VS Code reports them, leaving unset keys out', () => {
    const { settings, problems } = buildServerSettings(
      reader({
        confidenceThreshold: 0.7,
        baselineMode: 'git',
        device: 'NVIDIA H100',
        maxFileSize: null,
        gpuWorkers: [],
        autoVerify: false,
        verifyTimeout: 120,
        learnFromMeasurements: true,
        'llm.endpoint': '',
        'llm.model': '',
        'llm.apiKeyEnv': 'KFORECAST_LLM_API_KEY',
        'llm.timeoutMs': 30000,
        'llm.maxConcurrency': 4,
        'llm.retries': 2,
        'llm.weight': 0.5,
        'llm.rewrites': 2,
        'search.budget': 8,
        'search.seed': 0,
        cacheDir: '',
      }),
    );
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {
      confidenceThreshold: 0.7,
      baselineMode: 'git',
      device: 'NVIDIA H100',
      gpuWorkers: [],
      autoVerify: false,
      verifyTimeout: 120,
      learnFromMeasurements: true,
      // An empty endpoint is sent: the LLM surrogate is off (and turned off if it was on).
      llm: { endpoint: '', model: '', apiKeyEnv: 'KFORECAST_LLM_API_KEY', timeoutMs: 30000, maxConcurrency: 4, retries: 2, weight: 0.5, rewrites: 2 },
      search: { budget: 8, seed: 0 },
    });
  });

  it('maps every setting the server knows', () => {
    const { settings, problems } = buildServerSettings(
      reader({
        confidenceThreshold: 0.9,
        baselineMode: 'open',
        device: '  NVIDIA H200 ',
        maxFileSize: 4096,
        gpuWorkers: [{ url: 'http://gpu:7070', token: 't' }, 'http://other:7070', { url: 'https://gpu2:7070', tokenEnv: 'GPU2_TOKEN' }, 'local'],
        autoVerify: true,
        verifyTimeout: 300,
        learnFromMeasurements: false,
        'llm.endpoint': ' http://localhost:8000/v1 ',
        'llm.model': 'openai/gpt-oss-20b',
        'llm.apiKeyEnv': 'MY_KEY',
        'llm.timeoutMs': 5000,
        'llm.maxConcurrency': 2,
        'llm.retries': 0,
        'llm.weight': 0.3,
        'llm.rewrites': 0,
        'search.budget': 16,
        'search.seed': 3,
        cacheDir: '/tmp/c',
      }),
    );
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {
      confidenceThreshold: 0.9,
      baselineMode: 'open',
      device: 'NVIDIA H200',
      maxFileSize: 4096,
      gpuWorkers: [{ url: 'http://gpu:7070', token: 't' }, { url: 'http://other:7070' }, { url: 'https://gpu2:7070', tokenEnv: 'GPU2_TOKEN' }, { url: 'local' }],
      autoVerify: true,
      verifyTimeout: 300,
      learnFromMeasurements: false,
      llm: { endpoint: 'http://localhost:8000/v1', model: 'openai/gpt-oss-20b', apiKeyEnv: 'MY_KEY', timeoutMs: 5000, maxConcurrency: 2, retries: 0, weight: 0.3, rewrites: 0 },
      search: { budget: 16, seed: 3 },
      cacheDir: '/tmp/c',
    });
  });

  it('reports invalid values by name and leaves them out', () => {
    const { settings, problems } = buildServerSettings(
      reader({
        confidenceThreshold: 1.5,
        baselineMode: 'HEAD',
        device: '   ',
        maxFileSize: 12,
        gpuWorkers: [{ token: 'x' }, { url: 'http://ok' }, { url: 'gpu:7070' }, { url: 'http://t', tokenEnv: 'A=b' }],
        autoVerify: 'yes',
        verifyTimeout: 0,
        learnFromMeasurements: 'no',
        'llm.endpoint': 'ftp://x',
        'llm.model': 42,
        'llm.timeoutMs': 50,
        'llm.maxConcurrency': 65,
        'llm.retries': 1.5,
        'llm.weight': '0.5',
        'llm.rewrites': 9,
        'search.budget': 1001,
        'search.seed': -1,
      }),
    );
    for (const key of [
      'confidenceThreshold', 'baselineMode', 'device', 'maxFileSize', 'gpuWorkers[0]', 'gpuWorkers[2].url', 'gpuWorkers[3].tokenEnv',
      'autoVerify', 'verifyTimeout', 'learnFromMeasurements', 'llm.endpoint', 'llm.model', 'llm.timeoutMs',
      'llm.maxConcurrency', 'llm.retries', 'llm.weight', 'llm.rewrites', 'search.budget', 'search.seed',
    ]) {
      // Named by the VS Code setting (`kforecast.forecast.confidenceThreshold`, `kforecast.gpu.workers[0]`).
      const head = key.replace(/\[.*$/, '');
      const named = `kforecast.${settingFor(head)}${key.slice(head.length)}`;
      assert.ok(problems.some((p) => p.includes(named)), `no problem reported for ${named}: ${problems.join(' | ')}`);
    }
    assert.deepStrictEqual(settings, { gpuWorkers: [{ url: 'http://ok' }, { url: 'http://t' }] });
  });

  it('never echoes an apiKeyEnv value (it may be the key itself)', () => {
    const { settings, problems } = buildServerSettings(reader({ 'llm.apiKeyEnv': 'sk=secret' }));
    assert.ok(problems.some((p) => p.includes('kforecast.llm.apiKeyEnv')), problems.join(' | '));
    assert.ok(!problems.some((p) => p.includes('secret')), problems.join(' | '));
    assert.deepStrictEqual(settings, {});
  });

  it('moves the old flat settings to their grouped names, level by level', () => {
    const values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }> = {
      serverPath: { globalValue: '/opt/kforecast' },
      confidenceThreshold: { workspaceValue: 0.8 },
      device: { globalValue: 'NVIDIA H100', workspaceValue: 'NVIDIA H100' },
      'forecast.device': { workspaceValue: 'NVIDIA H100' },
      searchBudget: { globalValue: 20 },
      llmEndpoint: { globalValue: { url: ' http://old:8000/v1 ', model: 'old', apiKeyEnv: 'OLD_KEY' } },
    };
    const { moves, notes } = planMigration((key) => values[key]);
    assert.deepStrictEqual(moves, [
      { from: 'serverPath', to: 'server.path', value: '/opt/kforecast', level: 'global' },
      { from: 'confidenceThreshold', to: 'forecast.confidenceThreshold', value: 0.8, level: 'workspace' },
      { from: 'device', to: 'forecast.device', value: 'NVIDIA H100', level: 'global' },
      { from: 'device', level: 'workspace' },
      { from: 'searchBudget', to: 'search.budget', value: 20, level: 'global' },
      { from: 'llmEndpoint', to: 'llm.endpoint', value: 'http://old:8000/v1', level: 'global' },
      { from: 'llmEndpoint', to: 'llm.model', value: 'old', level: 'global' },
      { from: 'llmEndpoint', to: 'llm.apiKeyEnv', value: 'OLD_KEY', level: 'global' },
      { from: 'llmEndpoint', level: 'global' },
    ]);
    assert.deepStrictEqual(notes, ['kforecast.device (workspace settings) is dropped: kforecast.forecast.device is set there.']);
    assert.match(
      migrationNotice(moves) ?? '',
      /serverPath → server\.path, confidenceThreshold → forecast\.confidenceThreshold, device → forecast\.device, searchBudget → search\.budget, llmEndpoint → llm\.endpoint/,
    );
    assert.strictEqual(migrationNotice([]), undefined);
  });

  it('never moves a sensitive setting out of workspace settings', () => {
    const values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }> = {
      gpuWorkers: { workspaceValue: [{ url: 'https://evil.example', tokenEnv: 'AWS_SECRET_ACCESS_KEY' }] },
      autoVerify: { workspaceValue: true },
      llmEndpoint: { workspaceValue: { url: 'https://evil.example/v1', model: 'm', apiKeyEnv: 'GITHUB_TOKEN' } },
    };
    const { moves, notes } = planMigration((key) => values[key]);
    assert.deepStrictEqual(moves, []);
    for (const [from, to] of [['gpuWorkers', 'gpu.workers'], ['autoVerify', 'gpu.autoVerify'], ['llmEndpoint', 'llm.endpoint']]) {
      const start = `kforecast.${from} in workspace settings is ignored: kforecast.${to} is read from your user settings only`;
      assert.ok(notes.some((n) => n.startsWith(start)), notes.join(' | '));
    }
  });

  it('turns off what runs kernels or sends data in an untrusted workspace', () => {
    const trusted = { confidenceThreshold: 0.7, autoVerify: true, gpuWorkers: [{ url: 'http://gpu:7070' }], llm: { endpoint: 'http://llm/v1', model: 'm' } };
    assert.deepStrictEqual(restrictForUntrusted(trusted), {
      confidenceThreshold: 0.7,
      autoVerify: false,
      gpuWorkers: [],
      llm: { endpoint: '', model: 'm' },
    });
    assert.deepStrictEqual(restrictForUntrusted({}).llm, { endpoint: '' });
  });

  it('nests didChangeConfiguration settings under "kforecast"', () => {
    assert.deepStrictEqual(didChangeConfigurationParams({ confidenceThreshold: 0.5 }), {
      settings: { kforecast: { confidenceThreshold: 0.5 } },
    });
  });

  it('builds the server environment', () => {
    const env = serverEnvironment({ PATH: '/bin', GONE: undefined }, 'debug', '/tmp/cache');
    assert.deepStrictEqual(env, { PATH: '/bin', KFORECAST_LOG: 'debug', KFORECAST_CACHE_DIR: '/tmp/cache' });
    assert.deepStrictEqual(serverEnvironment({ PATH: '/bin' }, 'default', undefined), { PATH: '/bin' });
  });
});
