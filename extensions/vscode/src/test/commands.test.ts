import * as assert from 'assert';
import { commandArguments, commandsForClientToRegister, errorMessage, serverArgumentsFrom } from '../commands';
import { parseServerStatus, statusView } from '../status';

describe('commands', () => {
  it('builds [{uri, kernel?}] arguments', () => {
    assert.deepStrictEqual(commandArguments({ uri: 'file:///a.cu', kernel: 'k' }), [{ uri: 'file:///a.cu', kernel: 'k' }]);
    assert.deepStrictEqual(commandArguments({ uri: 'file:///a.cu' }), [{ uri: 'file:///a.cu' }]);
    assert.deepStrictEqual(commandArguments({ uri: 'file:///a.cu', kernel: '' }), [{ uri: 'file:///a.cu' }]);
  });

  it('reuses a code lens\'s arguments and ignores anything else', () => {
    assert.deepStrictEqual(serverArgumentsFrom([{ uri: 'file:///a.cu', kernel: 'k' }]), { uri: 'file:///a.cu', kernel: 'k' });
    assert.strictEqual(serverArgumentsFrom([]), undefined);
    assert.strictEqual(serverArgumentsFrom([{ path: '/a.cu' }]), undefined);
    assert.strictEqual(serverArgumentsFrom(['file:///a.cu']), undefined);
  });

  it('keeps the client from registering the commands the extension owns', () => {
    assert.deepStrictEqual(
      commandsForClientToRegister(['kforecast.setBaseline', 'kforecast.showForecast', 'kforecast.somethingNew']),
      ['kforecast.somethingNew'],
    );
    assert.deepStrictEqual(commandsForClientToRegister(undefined), []);
  });

  it('formats server errors', () => {
    assert.strictEqual(errorMessage('kforecast.verify', new Error('unknown command')), 'kforecast: kforecast.verify failed: unknown command');
    assert.strictEqual(errorMessage('x', { code: -32602, message: 'bad' }), 'kforecast: x failed: bad');
  });
});

describe('status bar', () => {
  it('shows the forecaster, GPU workers and jobs', () => {
    const server = parseServerStatus({ forecaster: 'embedded-v1', device: 'NVIDIA H100', documents: 2, jobs: 1, store: null });
    const view = statusView({ state: 'running', server, configuredWorkers: 0, pendingCommands: 1 });
    assert.strictEqual(view.text, '$(sync~spin) kforecast: embedded-v1 · no GPU · 2 jobs');
    assert.match(view.tooltip, /device: NVIDIA H100/);
    const idle = statusView({ state: 'running', server: { forecaster: 'f' }, configuredWorkers: 2, pendingCommands: 0 });
    assert.strictEqual(idle.text, '$(pulse) kforecast: f · GPU 2 configured');
  });

  it('counts the workers the server found up or down', () => {
    const view = (gpuWorkers: unknown) =>
      statusView({ state: 'running', server: parseServerStatus({ forecaster: 'f', gpuWorkers }), configuredWorkers: 2, pendingCommands: 0 }).text;
    assert.strictEqual(view([{ url: 'http://a:1', state: 'up' }, { url: 'http://b:2', state: 'down' }]), '$(pulse) kforecast: f · GPU 1/2 up');
    assert.strictEqual(view([{ url: 'http://a:1', state: 'unused' }, { url: 'http://b:2', state: 'unused' }]), '$(pulse) kforecast: f · GPU 2 configured');
    assert.strictEqual(view([{ url: 'local', state: 'unused' }]), '$(pulse) kforecast: f · GPU: local');
  });

  it('flags a missing server', () => {
    const view = statusView({ state: 'missing', configuredWorkers: 0, pendingCommands: 0 });
    assert.ok(view.warning);
    assert.match(view.tooltip, /not found/);
  });
});
