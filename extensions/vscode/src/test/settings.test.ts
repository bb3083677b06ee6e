import * as assert from 'assert';
import { buildServerSettings, didChangeConfigurationParams, serverEnvironment } from '../settings';

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
        llmEndpoint: null,
        'search.budget': 8,
        'search.seed': 0,
        searchBudget: null,
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
        llmEndpoint: { url: 'http://x' },
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
        searchBudget: 0,
      }),
    );
    for (const key of [
      'confidenceThreshold', 'baselineMode', 'device', 'maxFileSize', 'gpuWorkers[0]', 'gpuWorkers[2].url', 'gpuWorkers[3].tokenEnv',
      'llmEndpoint', 'autoVerify', 'verifyTimeout', 'learnFromMeasurements', 'llm.endpoint', 'llm.model', 'llm.timeoutMs',
      'llm.maxConcurrency', 'llm.retries', 'llm.weight', 'llm.rewrites', 'search.budget', 'search.seed', 'searchBudget',
    ]) {
      assert.ok(problems.some((p) => p.includes(`kforecast.${key}`)), `no problem reported for ${key}: ${problems.join(' | ')}`);
    }
    assert.deepStrictEqual(settings, { gpuWorkers: [{ url: 'http://ok' }, { url: 'http://t' }] });
  });

  it('never echoes an apiKeyEnv value (it may be the key itself)', () => {
    const { settings, problems } = buildServerSettings(reader({ 'llm.apiKeyEnv': 'sk=secret', llmEndpoint: { url: 'http://x', model: 'm', apiKeyEnv: 'sk=other' } }));
    assert.ok(problems.some((p) => p.includes('kforecast.llm.apiKeyEnv')), problems.join(' | '));
    assert.ok(problems.some((p) => p.includes('kforecast.llmEndpoint.apiKeyEnv')), problems.join(' | '));
    assert.ok(!problems.some((p) => p.includes('secret') || p.includes('other')), problems.join(' | '));
    assert.deepStrictEqual(settings, { llm: { endpoint: 'http://x', model: 'm' } });
  });

  it('treats an all-empty llmEndpoint object as unset', () => {
    const { settings, problems } = buildServerSettings(reader({ llmEndpoint: { url: '', model: '' } }));
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {});
  });

  it('uses the deprecated llmEndpoint only while llm.endpoint is empty', () => {
    const legacy = { url: 'http://old:8000/v1', model: 'old', apiKeyEnv: 'OLD_KEY' };
    const base = { 'llm.endpoint': '', 'llm.model': '', 'llm.apiKeyEnv': 'KFORECAST_LLM_API_KEY', 'llm.weight': 0.25 };
    let r = buildServerSettings(reader({ ...base, llmEndpoint: legacy }));
    assert.deepStrictEqual(r.problems, []);
    assert.deepStrictEqual(r.settings.llm, { endpoint: 'http://old:8000/v1', model: 'old', apiKeyEnv: 'OLD_KEY', weight: 0.25 });
    r = buildServerSettings(reader({ ...base, 'llm.endpoint': 'http://new/v1', 'llm.model': 'new', llmEndpoint: legacy }));
    assert.deepStrictEqual(r.settings.llm, { endpoint: 'http://new/v1', model: 'new', apiKeyEnv: 'KFORECAST_LLM_API_KEY', weight: 0.25 });
    assert.ok(r.problems.some((p) => p.includes('kforecast.llmEndpoint') && p.includes('ignored')), r.problems.join(' | '));
  });

  it('uses the deprecated searchBudget only while search.budget is at its default', () => {
    let r = buildServerSettings(reader({ 'search.budget': 8, 'search.seed': 0, searchBudget: 20 }));
    assert.deepStrictEqual(r.problems, []);
    assert.deepStrictEqual(r.settings.search, { budget: 20, seed: 0 });
    r = buildServerSettings(reader({ searchBudget: 20 }));
    assert.deepStrictEqual(r.settings.search, { budget: 20 });
    r = buildServerSettings(reader({ 'search.budget': 32, searchBudget: 20 }));
    assert.deepStrictEqual(r.settings.search, { budget: 32 });
    assert.ok(r.problems.some((p) => p.includes('kforecast.searchBudget') && p.includes('ignored')), r.problems.join(' | '));
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
