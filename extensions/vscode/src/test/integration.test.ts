// The extension's VS Code glue against the real server, with a stand-in for the
// `vscode` module (fakeVscode.ts): activation, server start with the settings
// as initializationOptions, document sync (and the Triton gate for Python),
// inlay hints through the client, settings changes, and the commands.
// Skipped when no server binary is found (KFORECAST_BIN or target/debug/kforecast).

import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FakeDocument, FakeState, Position, Range, Selection, Uri, createFakeVscode, installFakeVscode } from './fakeVscode';

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const server = process.env.KFORECAST_BIN ?? path.join(repo, 'target', 'debug', 'kforecast');
const TIMEOUT = 30000;

async function waitFor<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, timeout = TIMEOUT): Promise<T> {
  const until = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface HintLike {
  position: Position;
  label: string | { value: string }[];
}
const labelOf = (h: HintLike): string => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));
const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

describe('extension against the real server (fake VS Code API)', function () {
  this.timeout(120000);

  let state: FakeState;
  let ext: { activate(ctx: unknown): void; deactivate(): Promise<void> };
  let tmp: string;
  let cuda: FakeDocument;
  const subscriptions: { dispose(): unknown }[] = [];

  before(function () {
    if (!fs.existsSync(server)) {
      console.log(`    (skipped: no server binary at ${server}; build it with cargo build -p kforecast or set KFORECAST_BIN)`);
      this.skip();
    }
    const fake = createFakeVscode();
    state = fake.state;
    installFakeVscode(fake.api);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ext = require('../extension') as typeof ext;

    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kforecast-vscode-it-'));
    const work = path.join(tmp, 'work');
    fs.mkdirSync(path.join(work, 'src'), { recursive: true });
    fs.copyFileSync(path.join(repo, 'test-workspaces/cuda/previous/src/transpose.cu'), path.join(work, 'src/transpose.cu'));
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: work, stdio: 'ignore' });
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'previous');

    // Every declared setting at its package.json default (as VS Code reports them), then the test's own.
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'extensions', 'vscode', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> }[] };
    };
    const declared = Object.assign({}, ...manifest.contributes.configuration.map((g) => g.properties)) as Record<string, { default?: unknown }>;
    const defaults = Object.fromEntries(Object.entries(declared).map(([k, p]) => [k, p.default]));
    delete defaults['kforecast.server.path'];
    delete defaults['kforecast.forecast.device'];
    state.config = {
      ...defaults,
      // Old flat names, as a 0.1 user has them: moved to the new names on activation.
      'kforecast.serverPath': server,
      'kforecast.device': 'NVIDIA H100',
      'kforecast.forecast.confidenceThreshold': 0.7,
      'kforecast.baseline.mode': 'git',
      'kforecast.gpu.workers': [],
      'kforecast.gpu.autoVerify': false,
      'kforecast.server.cacheDir': path.join(tmp, 'cache'),
      'kforecast.server.logLevel': 'info',
      'kforecast.lens.enable': true,
    };
    // A repository's .vscode/settings.json that would send kernels and a token elsewhere.
    state.workspaceConfig = { 'kforecast.gpuWorkers': [{ url: 'https://evil.example:7878', tokenEnv: 'AWS_SECRET_ACCESS_KEY' }] };
    const file = path.join(work, 'src/transpose.cu');
    cuda = new FakeDocument(Uri.file(file), 'cuda-cpp', fs.readFileSync(file, 'utf8'));
    state.documents.push(cuda);
  });

  afterEach(function () {
    const verbose = process.env.KFORECAST_IT_VERBOSE && this.currentTest?.title.startsWith('keeps Python');
    if (this.currentTest?.state === 'failed' || verbose) {
      console.log('    --- kforecast output channel ---\n' + state.output.map((l) => '    ' + l).join('\n'));
      console.log('    --- messages ---\n' + state.messages.map((m) => `    [${m.level}] ${m.text}`).join('\n'));
    }
  });

  after(async function () {
    if (ext) await ext.deactivate();
    subscriptions.forEach((d) => d.dispose());
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const hintsFor = async (doc: FakeDocument): Promise<HintLike[]> => {
    const provider = state.providers.get('inlayHints')?.[0] as
      | { provideInlayHints(d: unknown, r: Range, t: unknown): Promise<HintLike[] | undefined> }
      | undefined;
    assert.ok(provider, 'no inlay hints provider registered');
    return (await provider.provideInlayHints(doc, new Range(0, 0, doc.lineCount, 0), token)) ?? [];
  };

  it('registers the commands and starts the server for an open CUDA file', async () => {
    ext.activate({ subscriptions, extensionPath: path.join(repo, 'extensions', 'vscode') });
    for (const c of ['kforecast.verify', 'kforecast.search', 'kforecast.setBaseline', 'kforecast.showForecast', 'kforecast.restartServer', 'kforecast.showOutput']) {
      assert.ok(state.commands.has(c), `command ${c} not registered`);
    }
    await waitFor('the inlay hints provider (client running)', () => state.providers.get('inlayHints')?.length);
    // The old names were moved once, with a notice; the workspace's worker list was not.
    assert.strictEqual(state.config['kforecast.server.path'], server);
    assert.ok(!('kforecast.serverPath' in state.config), 'kforecast.serverPath was not removed');
    assert.ok(state.messages.some((m) => m.level === 'info' && m.text.includes('serverPath → server.path')), JSON.stringify(state.messages));
    assert.ok(!('kforecast.gpu.workers' in state.workspaceConfig), 'a workspace gpuWorkers value was moved');
    assert.ok(state.messages.some((m) => m.level === 'warning' && m.text.includes('kforecast.gpuWorkers in workspace settings is ignored')), JSON.stringify(state.messages));
    await waitFor('the status bar to show the forecaster (kforecast/status)', () => /open documents: 1\b/.test(state.statusBar.tooltip ?? ''));
    assert.match(state.statusBar.text, /kforecast: embedded\S* · GPU: local/);
    // The settings went to the server as initializationOptions.
    assert.match(state.statusBar.tooltip ?? '', /device: NVIDIA H100\b/);
    assert.ok(state.statusBar.visible, 'status bar item hidden');
    assert.ok(state.output.some((l) => l.includes('connected to kforecast')), state.output.join('\n'));
    assert.deepStrictEqual(await hintsFor(cuda), [], 'no hint before the edit');
    // The server took every default from package.json without complaint.
    const refused = state.messages.filter((m) => m.text.includes('kforecast.') && /setting/.test(m.text) && !/in workspace settings is ignored|settings renamed/.test(m.text));
    assert.deepStrictEqual(refused, [], 'the server or the extension refused a default setting');
  });

  it('shows a "faster" hint after the edit', async () => {
    state.onDidChange.fire(cuda.replaceAll(fs.readFileSync(path.join(repo, 'test-workspaces/cuda/src/transpose.cu'), 'utf8')));
    const hint = await waitFor('a hint containing "faster"', async () => (await hintsFor(cuda)).find((h) => labelOf(h).includes('faster')));
    assert.match(labelOf(hint), /^≈\d+\.\d+× faster · \d+%$/);
    // After the signature's `{` (or at the end of its line), never inside the code.
    const line = cuda.lineAt(hint.position.line).text;
    assert.ok(line.slice(0, hint.position.character).trimEnd().endsWith('{') || hint.position.character >= line.trimEnd().length, `hint at ${hint.position.character} of ${JSON.stringify(line)}`);
    const lenses = state.providers.get('codeLens')?.[0] as { provideCodeLenses(d: unknown, t: unknown): Promise<{ command?: { title: string; command: string } }[]> };
    const titles = ((await lenses.provideCodeLenses(cuda, token)) ?? []).map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => t.startsWith('kforecast:') && t.includes(labelOf(hint))), titles.join(' | '));
    state.config['kforecast.inlayHints.enable'] = false;
    assert.deepStrictEqual(await hintsFor(cuda), [], 'kforecast.inlayHints.enable = false still shows hints');
    delete state.config['kforecast.inlayHints.enable'];
  });

  it('runs no kernel in an untrusted workspace', async () => {
    state.trusted = false;
    const before = state.messages.length;
    const result = await state.commands.get('kforecast.verify')!({ uri: cuda.uri.toString(), kernel: 'transpose' });
    assert.strictEqual(result, undefined);
    assert.ok(state.messages.slice(before).some((m) => m.level === 'warning' && m.text.includes('not trusted')), JSON.stringify(state.messages.slice(before)));
    state.trusted = true;
  });

  it('sends settings changes to the server', async () => {
    state.config['kforecast.forecast.confidenceThreshold'] = 0.9999;
    state.onDidChangeConfiguration.fire({ affectsConfiguration: (s: string) => 'kforecast.forecast.confidenceThreshold'.startsWith(s) });
    await waitFor('an unsure hint', async () => (await hintsFor(cuda)).find((h) => labelOf(h).endsWith('· unsure')));
    state.config['kforecast.forecast.confidenceThreshold'] = 0.7;
    state.onDidChangeConfiguration.fire({ affectsConfiguration: (s: string) => 'kforecast.forecast.confidenceThreshold'.startsWith(s) });
    await waitFor('a confident hint', async () => (await hintsFor(cuda)).find((h) => !labelOf(h).includes('unsure')));
  });

  it('runs Show forecast details for the kernel under the cursor', async () => {
    const line = cuda.getText().split('\n').findIndex((l) => l.includes('__syncthreads'));
    state.activeTextEditor = { document: cuda, selection: new Selection(new Position(line, 4), new Position(line, 4)) };
    const result = (await state.commands.get('kforecast.showForecast')!()) as { kernel?: string; claim?: string };
    assert.strictEqual(result?.kernel, 'transpose');
    const shown = [...state.opened.values()].find((t) => t.includes('"kernel": "transpose"'));
    assert.ok(shown, 'the forecast JSON was not opened');
  });

  it('Verify kernel on GPU starts a measurement on the server', async () => {
    const result = (await state.commands.get('kforecast.verify')!({ uri: cuda.uri.toString(), kernel: 'transpose' })) as { started?: boolean; running?: boolean };
    assert.ok(result && (result.started === true || result.running === true), JSON.stringify(result));
  });

  it('Set baseline removes the hint', async () => {
    const result = (await state.commands.get('kforecast.setBaseline')!({ uri: cuda.uri.toString(), kernel: 'transpose' })) as { baselined?: number };
    assert.ok(result && typeof result.baselined === 'number', JSON.stringify(result));
    await waitFor('no hint after Set baseline', async () => (await hintsFor(cuda)).length === 0);
  });

  it('keeps Python files without kernels away from the server until they hold one', async () => {
    const file = path.join(tmp, 'work', 'plain.py');
    fs.writeFileSync(file, 'import numpy\n');
    const py = new FakeDocument(Uri.file(file), 'python', 'import numpy\n');
    state.documents.push(py);
    state.onDidOpen.fire(py);
    assert.deepStrictEqual(await hintsFor(py), [], 'hints for a withheld document');
    assert.match(state.statusBar.tooltip ?? '', /open documents: 1\b/);
    state.onDidChange.fire(py.replaceAll('import numpy\nimport triton  # a comment is not a kernel\n'));
    await new Promise((r) => setTimeout(r, 500));
    assert.match(state.statusBar.tooltip ?? '', /open documents: 1\b/);
    state.onDidChange.fire(py.replaceAll('import triton\n\n@triton.jit\ndef k(x_ptr):\n    pass\n'));
    await waitFor('the server to hold 2 documents', () => /open documents: 2\b/.test(state.statusBar.tooltip ?? ''), 15000);
  });

  it('explains what to do when server.path points nowhere', async () => {
    await ext.deactivate();
    subscriptions.splice(0).forEach((d) => d.dispose());
    state.config['kforecast.server.path'] = path.join(tmp, 'nope', 'kforecast');
    const before = state.messages.length;
    ext.activate({ subscriptions, extensionPath: path.join(repo, 'extensions', 'vscode') });
    const error = await waitFor('an error naming kforecast.server.path', () =>
      state.messages.slice(before).find((m) => m.level === 'error' && m.text.includes('kforecast.server.path')),
    );
    assert.match(error.text, /no executable at/);
    assert.match(state.statusBar.text, /\$\(error\) kforecast/);
  });
});
