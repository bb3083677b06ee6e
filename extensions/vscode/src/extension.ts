// VS Code glue: starts `kforecast lsp`, keeps its settings in sync, and wires
// the commands, the status bar item and the output channel. The decisions
// live in the pure modules next to this file (unit-tested without VS Code).

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import type { DocumentFilter, DynamicFeature, StaticFeature } from 'vscode-languageclient/node';
import {
  CommandTarget,
  NEEDS_KERNEL,
  SERVER_COMMANDS,
  ServerCommand,
  commandArguments,
  commandsForClientToRegister,
  errorMessage,
  serverArgumentsFrom,
} from './commands';
import { CUDA_LANGUAGES, DocumentGate, PYTHON_LANGUAGE, inScope } from './documents';
import { findKernels, kernelAt } from './kernels';
import { BINARY, Resolution, resolveServerPath } from './serverPath';
import {
  Level,
  ServerSettings,
  buildServerSettings,
  didChangeConfigurationParams,
  migrationNotice,
  planMigration,
  restrictForUntrusted,
  serverEnvironment,
  settingFor,
} from './settings';
import { ClientState, ServerStatus, parseServerStatus, statusView } from './status';

const SECTION = 'kforecast';
const FORECAST_SCHEME = 'kforecast-forecast';
const STATUS_POLL_MS = 5000;
/** Context key: the active editor holds CUDA or Python with kernels (the palette's `when`). */
const KERNEL_FILE_CONTEXT = 'kforecast.kernelFile';
/** Commands that run the user's kernels: refused in an untrusted workspace. */
const RUNS_KERNELS: ReadonlySet<string> = new Set([SERVER_COMMANDS.verify, SERVER_COMMANDS.search]);

/**
 * The language client, less the registration of VS Code commands for the
 * server commands that this extension registers itself (otherwise VS Code
 * refuses the second registration of the same command id).
 */
class KforecastClient extends LanguageClient {
  public override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    const dynamic = feature as Partial<DynamicFeature<{ commands?: string[] }>>;
    if (dynamic.registrationType?.method === ExecuteCommandRequest.method && typeof dynamic.register === 'function') {
      const register = dynamic.register.bind(feature);
      dynamic.register = (data) => {
        const commands = commandsForClientToRegister(data.registerOptions.commands);
        register({ ...data, registerOptions: { ...data.registerOptions, commands } });
      };
    }
    super.registerFeature(feature);
  }
}

class Extension {
  private client: KforecastClient | undefined;
  private starting: Promise<KforecastClient | undefined> | undefined;
  private state: ClientState = 'stopped';
  private serverPath: string | undefined;
  private serverStatus: ServerStatus | undefined;
  private pendingCommands = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly gate = new DocumentGate();
  private readonly output: vscode.OutputChannel;
  private readonly statusItem: vscode.StatusBarItem;
  private readonly forecasts = new Map<string, string>();
  private readonly forecastChanged = new vscode.EventEmitter<vscode.Uri>();
  private reportedProblems = '';
  private kernelFile: boolean | undefined;
  private migrated = false;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('kforecast');
    this.statusItem = vscode.window.createStatusBarItem('kforecast.status', vscode.StatusBarAlignment.Right, 100);
    this.statusItem.name = 'kforecast';
    this.statusItem.command = 'kforecast.showOutput';
    context.subscriptions.push(this.output, this.statusItem, this.forecastChanged);
  }

  activate(): void {
    const ctx = this.context;
    const register = (id: string, fn: (...args: unknown[]) => unknown): void => {
      ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));
    };
    for (const command of Object.values(SERVER_COMMANDS)) {
      register(command, (...args: unknown[]) => this.runServerCommand(command, args));
    }
    register('kforecast.restartServer', () => this.restart());
    register('kforecast.showOutput', () => this.output.show(true));

    ctx.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(FORECAST_SCHEME, {
        onDidChange: this.forecastChanged.event,
        provideTextDocumentContent: (uri) => this.forecasts.get(uri.toString()) ?? '',
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => this.maybeStart(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        this.maybeStart(e.document);
        if (e.document === vscode.window.activeTextEditor?.document && this.kernelFile !== true) this.updateStatus();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.sendSettings()),
      { dispose: () => this.stopPolling() },
    );

    this.updateStatus();
    // Old flat setting names are moved to the grouped ones first, then the server starts.
    void this.migrateSettings().finally(() => {
      this.migrated = true;
      for (const doc of vscode.workspace.textDocuments) this.maybeStart(doc);
      this.updateStatus();
    });
  }

  async deactivate(): Promise<void> {
    this.stopPolling();
    const client = this.client;
    this.client = undefined;
    if (client) await client.stop().catch(() => undefined);
  }

  // ----- settings -----------------------------------------------------------

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /**
   * Moves the values of the old flat settings (`kforecast.serverPath`, …) to their
   * grouped names, at the level they were set, and says so once. A sensitive value found
   * in workspace settings stays where it is, unused, and is reported.
   */
  private async migrateSettings(): Promise<void> {
    const config = this.config();
    const { moves, notes } = planMigration((key) => config.inspect(key));
    const target: Record<Level, vscode.ConfigurationTarget> = {
      global: vscode.ConfigurationTarget.Global,
      workspace: vscode.ConfigurationTarget.Workspace,
      workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
    };
    const done = [];
    for (const move of moves) {
      try {
        if (move.to !== undefined) await config.update(move.to, move.value, target[move.level]);
        await config.update(move.from, undefined, target[move.level]);
        done.push(move);
      } catch (err) {
        this.output.appendLine(`[settings] could not move kforecast.${move.from} (${move.level}): ${String(err)}`);
      }
    }
    for (const note of notes) this.output.appendLine(`[settings] ${note}`);
    const notice = migrationNotice(done);
    if (notice) {
      this.output.appendLine(`[settings] ${notice}`);
      void vscode.window.showInformationMessage(notice);
    }
    const ignored = notes.filter((n) => n.includes(' is ignored: '));
    if (ignored.length > 0) void vscode.window.showWarningMessage(ignored[0]);
  }

  private serverSettings(): ServerSettings {
    const config = this.config();
    const built = buildServerSettings((key) => config.get(settingFor(key)));
    const problems = built.problems;
    const settings = vscode.workspace.isTrusted ? built.settings : restrictForUntrusted(built.settings);
    const joined = problems.join('\n');
    if (joined !== this.reportedProblems) {
      this.reportedProblems = joined;
      for (const p of problems) this.output.appendLine(`[settings] ${p}`);
      if (problems.length > 0) {
        void vscode.window.showWarningMessage(`kforecast: ${problems.length} invalid setting(s) left out: ${problems[0]}`);
      }
    }
    return settings;
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) return;
    if (
      e.affectsConfiguration(`${SECTION}.server.path`) ||
      e.affectsConfiguration(`${SECTION}.server.logLevel`) ||
      e.affectsConfiguration(`${SECTION}.server.cacheDir`)
    ) {
      if (this.client || this.state === 'missing' || this.state === 'failed') void this.restart();
      return;
    }
    this.sendSettings();
  }

  /** Sends the settings to a running server (it answers with fresh hints and lenses). */
  private sendSettings(): void {
    const client = this.client;
    if (client && client.state === State.Running) {
      void client
        .sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(this.serverSettings()))
        .catch((err: unknown) => this.output.appendLine(`[client] didChangeConfiguration failed: ${String(err)}`));
    }
    this.updateStatus();
  }

  // ----- client lifecycle ---------------------------------------------------

  private maybeStart(doc: vscode.TextDocument): void {
    // After a failure, wait for Restart server or a settings change instead of retrying on every keystroke.
    if (!this.migrated || this.client || this.starting || this.state === 'missing' || this.state === 'failed') return;
    if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') return;
    if (!inScope(doc.languageId, doc.getText(), doc.fileName)) return;
    void this.ensureClient();
  }

  private ensureClient(): Promise<KforecastClient | undefined> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private resolveServer(): Resolution {
    const config = this.config();
    ensureExecutable(path.join(this.context.extensionPath, 'server', BINARY));
    return resolveServerPath({
      setting: config.get<string>('server.path'),
      extensionPath: this.context.extensionPath,
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      platform: process.platform,
      env: process.env,
      homeDir: os.homedir(),
      isExecutable: (p) => {
        try {
          const st = fs.statSync(p);
          if (!st.isFile()) return false;
          if (process.platform !== 'win32') fs.accessSync(p, fs.constants.X_OK);
          return true;
        } catch {
          return false;
        }
      },
    });
  }

  private async start(): Promise<KforecastClient | undefined> {
    const resolution = this.resolveServer();
    if (!resolution.ok) {
      this.state = 'missing';
      this.output.appendLine(resolution.message);
      this.updateStatus();
      const choice = await vscode.window.showErrorMessage(resolution.message, 'Open Settings', 'Show Log');
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'kforecast.server.path');
      } else if (choice === 'Show Log') {
        this.output.show(true);
      }
      return undefined;
    }
    this.serverPath = resolution.path;
    this.state = 'starting';
    this.updateStatus();
    this.output.appendLine(`[client] starting ${resolution.path} lsp (found via ${resolution.source})`);

    const config = this.config();
    const settings = this.serverSettings();
    const env = serverEnvironment(process.env, config.get('server.logLevel'), settings.cacheDir);
    // No `transport`: with TransportKind.stdio the client would append `--stdio` to the arguments.
    const run = { command: resolution.path, args: ['lsp'], options: { env } };
    const serverOptions: ServerOptions = { run, debug: run };

    const selector: DocumentFilter[] = [];
    for (const scheme of ['file', 'untitled']) {
      for (const language of CUDA_LANGUAGES) selector.push({ scheme, language });
      selector.push({ scheme, language: PYTHON_LANGUAGE });
    }
    selector.push({ scheme: 'file', pattern: '**/*.{cu,cuh}' });

    const gate = this.gate;
    gate.clear();
    // Set right after construction: middleware may run before start() resolves.
    let clientRef: KforecastClient | undefined;
    const onServer = (doc: vscode.TextDocument): boolean => gate.isOnServer(doc.uri.toString(), doc.languageId);

    const clientOptions: LanguageClientOptions = {
      documentSelector: selector,
      initializationOptions: settings,
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      middleware: {
        didOpen: (doc, next) => (gate.onOpen(doc.uri.toString(), doc.languageId, doc.getText()) === 'forward' ? next(doc) : Promise.resolve()),
        didChange: async (event, next) => {
          const doc = event.document;
          const decision = gate.onChange(doc.uri.toString(), doc.languageId, () => doc.getText());
          if (decision === 'forward') return next(event);
          if (decision === 'open' && clientRef) {
            // A Python file that just got its first kernel: open it on the server now.
            const c = clientRef;
            await c.sendNotification(DidOpenTextDocumentNotification.type, {
              textDocument: { uri: c.code2ProtocolConverter.asUri(doc.uri), languageId: doc.languageId, version: doc.version, text: doc.getText() },
            });
          }
        },
        didClose: (doc, next) => (gate.onClose(doc.uri.toString(), doc.languageId) ? next(doc) : Promise.resolve()),
        willSave: (event, next) => (onServer(event.document) ? next(event) : Promise.resolve()),
        didSave: (doc, next) => (onServer(doc) ? next(doc) : Promise.resolve()),
        provideInlayHints: (doc, range, token, next) => (onServer(doc) && this.enabled('inlayHints.enable') ? next(doc, range, token) : []),
        provideCodeLenses: (doc, token, next) => (onServer(doc) && this.enabled('lens.enable') ? next(doc, token) : []),
        provideHover: (doc, pos, token, next) => (onServer(doc) ? next(doc, pos, token) : undefined),
        provideCodeActions: (doc, range, ctx, token, next) => (onServer(doc) ? next(doc, range, ctx, token) : []),
      },
    };

    const client = new KforecastClient('kforecast', 'kforecast', serverOptions, clientOptions);
    clientRef = client;
    this.context.subscriptions.push(
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) this.state = 'running';
        else if (e.newState === State.Starting) this.state = 'starting';
        else if (this.client === client) this.state = 'failed';
        this.updateStatus();
      }),
    );
    try {
      await client.start();
    } catch (err) {
      this.state = 'failed';
      this.output.appendLine(`[client] the server failed to start: ${String(err)}`);
      this.updateStatus();
      void vscode.window.showErrorMessage(`kforecast: the server (${resolution.path}) failed to start: ${String(err)}`, 'Show Log').then((c) => {
        if (c) this.output.show(true);
      });
      return undefined;
    }
    this.client = client;
    this.state = 'running';
    const info = client.initializeResult?.serverInfo;
    this.output.appendLine(`[client] connected to ${info?.name ?? 'kforecast'} ${info?.version ?? ''}`.trimEnd());
    this.startPolling();
    await this.pollStatus();
    return client;
  }

  private async restart(): Promise<void> {
    this.stopPolling();
    const old = this.client;
    this.client = undefined;
    this.serverStatus = undefined;
    this.state = 'stopped';
    if (old) await old.stop().catch(() => undefined);
    if (this.starting) await this.starting.catch(() => undefined);
    const wanted = vscode.workspace.textDocuments.some((d) => inScope(d.languageId, d.getText(), d.fileName));
    if (wanted) await this.ensureClient();
    this.updateStatus();
  }

  // ----- status -------------------------------------------------------------

  private startPolling(): void {
    this.stopPolling();
    this.pollTimer = setInterval(() => void this.pollStatus(), STATUS_POLL_MS);
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private async pollStatus(): Promise<void> {
    const client = this.client;
    if (!client || client.state !== State.Running) return;
    try {
      this.serverStatus = parseServerStatus(await client.sendRequest('kforecast/status'));
    } catch {
      this.serverStatus = undefined; // an older server without kforecast/status
    }
    this.updateStatus();
  }

  private updateStatus(): void {
    const config = this.config();
    const workers = config.get<unknown[]>('gpu.workers');
    const view = statusView({
      state: this.state,
      server: this.serverStatus,
      configuredWorkers: Array.isArray(workers) ? workers.length : 0,
      pendingCommands: this.pendingCommands,
      serverPath: this.serverPath,
      version: this.client?.initializeResult?.serverInfo?.version,
    });
    this.statusItem.text = view.text;
    this.statusItem.tooltip = view.tooltip;
    this.statusItem.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const editor = vscode.window.activeTextEditor;
    const relevant = this.state !== 'stopped' || (editor !== undefined && inScope(editor.document.languageId, editor.document.getText(), editor.document.fileName));
    if (relevant) this.statusItem.show();
    else this.statusItem.hide();
    const kernelFile = editor !== undefined && inScope(editor.document.languageId, editor.document.getText(), editor.document.fileName);
    if (kernelFile !== this.kernelFile) {
      this.kernelFile = kernelFile;
      void vscode.commands.executeCommand('setContext', KERNEL_FILE_CONTEXT, kernelFile);
    }
  }

  private enabled(key: 'inlayHints.enable' | 'lens.enable'): boolean {
    const v = this.config().get<boolean>(key);
    return key === 'lens.enable' ? v === true : v !== false;
  }

  // ----- commands -----------------------------------------------------------

  /** The command's target: the code lens's arguments, else the active editor and the kernel under its cursor. */
  private async target(command: ServerCommand, args: unknown[]): Promise<CommandTarget | undefined> {
    const given = serverArgumentsFrom(args);
    if (given) return given;
    const editor = vscode.window.activeTextEditor;
    if (!editor || !inScope(editor.document.languageId, editor.document.getText(), editor.document.fileName)) {
      void vscode.window.showWarningMessage('kforecast: open a CUDA (.cu, .cuh) or Triton Python file first.');
      return undefined;
    }
    const doc = editor.document;
    const languageId = doc.languageId === PYTHON_LANGUAGE ? 'python' : 'cuda';
    const uri = doc.uri.toString();
    const text = doc.getText();
    const kernel = kernelAt(languageId, text, editor.selection.active.line);
    if (kernel || !NEEDS_KERNEL.has(command)) return { uri, kernel };
    const names = [...new Set(findKernels(languageId, text).map((k) => k.name))];
    if (names.length === 0) {
      void vscode.window.showWarningMessage('kforecast: no kernel found in this file.');
      return undefined;
    }
    const picked = names.length === 1 ? names[0] : await vscode.window.showQuickPick(names, { placeHolder: 'Kernel' });
    return picked ? { uri, kernel: picked } : undefined;
  }

  private async runServerCommand(command: ServerCommand, args: unknown[]): Promise<unknown> {
    if (RUNS_KERNELS.has(command) && !vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('kforecast: this workspace is not trusted, so its kernels are not run; trust it (Manage Workspace Trust) to verify or search.');
      return undefined;
    }
    const target = await this.target(command, args);
    if (!target) return undefined;
    const client = await this.ensureClient();
    if (!client) {
      void vscode.window.showErrorMessage('kforecast: the language server is not running (see the kforecast output).');
      return undefined;
    }
    this.pendingCommands++;
    this.updateStatus();
    try {
      const result: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: commandArguments(target) });
      this.output.appendLine(`[command] ${command} ${JSON.stringify(target)} -> ${JSON.stringify(result)}`);
      await this.showResult(command, target, result);
      return result;
    } catch (err) {
      const message = errorMessage(command, err);
      this.output.appendLine(`[command] ${message}`);
      void vscode.window.showErrorMessage(message);
      return undefined;
    } finally {
      this.pendingCommands--;
      this.updateStatus();
    }
  }

  private async showResult(command: ServerCommand, target: CommandTarget, result: unknown): Promise<void> {
    if (command === SERVER_COMMANDS.setBaseline) {
      const count = typeof result === 'object' && result !== null ? (result as { baselined?: unknown }).baselined : undefined;
      const what = target.kernel ? `\`${target.kernel}\`` : typeof count === 'number' ? `${count} kernel(s)` : 'this file';
      vscode.window.setStatusBarMessage(`kforecast: baseline set for ${what}`, 4000);
      return;
    }
    if (command === SERVER_COMMANDS.showForecast && result !== null && result !== undefined) {
      const file = target.uri.split('/').pop() ?? 'document';
      const uri = vscode.Uri.from({ scheme: FORECAST_SCHEME, path: `/${file} · ${target.kernel ?? 'kernels'}.json` });
      this.forecasts.set(uri.toString(), JSON.stringify(result, null, 2) + '\n');
      this.forecastChanged.fire(uri);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
      return;
    }
    if (result !== null && result !== undefined) {
      this.output.appendLine(JSON.stringify(result, null, 2));
      this.output.show(true);
    }
  }
}

/** A server unpacked from a .vsix may have lost its executable bit. */
function ensureExecutable(file: string): void {
  if (process.platform === 'win32' || !fs.existsSync(file)) return;
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(file, 0o755);
    } catch {
      // resolveServerPath found it executable; nothing more to do
    }
  }
}

let extension: Extension | undefined;

export function activate(context: vscode.ExtensionContext): void {
  extension = new Extension(context);
  extension.activate();
}

export async function deactivate(): Promise<void> {
  await extension?.deactivate();
  extension = undefined;
}
