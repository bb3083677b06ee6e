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
        llmEndpoint: null,
        autoVerify: false,
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
    });
  });

  it('maps every setting the server knows', () => {
    const { settings, problems } = buildServerSettings(
      reader({
        confidenceThreshold: 0.9,
        baselineMode: 'open',
        device: '  NVIDIA H200 ',
        maxFileSize: 4096,
        gpuWorkers: [{ url: 'http://gpu:7070', token: 't' }, 'http://other:7070'],
        llmEndpoint: { url: 'http://localhost:8000/v1', model: 'm', apiKeyEnv: 'KEY' },
        autoVerify: true,
        searchBudget: 16,
        cacheDir: '/tmp/c',
      }),
    );
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {
      confidenceThreshold: 0.9,
      baselineMode: 'open',
      device: 'NVIDIA H200',
      maxFileSize: 4096,
      gpuWorkers: [{ url: 'http://gpu:7070', token: 't' }, { url: 'http://other:7070' }],
      llmEndpoint: { url: 'http://localhost:8000/v1', model: 'm', apiKeyEnv: 'KEY' },
      autoVerify: true,
      searchBudget: 16,
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
        gpuWorkers: [{ token: 'x' }, { url: 'http://ok' }],
        llmEndpoint: { url: 'http://x' },
        autoVerify: 'yes',
        searchBudget: 0,
      }),
    );
    for (const key of ['confidenceThreshold', 'baselineMode', 'device', 'maxFileSize', 'gpuWorkers[0]', 'llmEndpoint', 'autoVerify', 'searchBudget']) {
      assert.ok(problems.some((p) => p.includes(`kforecast.${key}`)), `no problem reported for ${key}: ${problems.join(' | ')}`);
    }
    assert.deepStrictEqual(settings, { gpuWorkers: [{ url: 'http://ok' }] });
  });

  it('treats an all-empty llmEndpoint object as unset', () => {
    const { settings, problems } = buildServerSettings(reader({ llmEndpoint: { url: '', model: '' } }));
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {});
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
