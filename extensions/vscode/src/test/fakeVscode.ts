// A small stand-in for the `vscode` module: enough of the API for the
// extension and vscode-languageclient to start the real server, sync
// documents and call the providers, without VS Code. Used by
// integration.test.ts only.

import * as path from 'path';
import Module = require('module');

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = thisArg ? listener.bind(thisArg) : listener;
    this.listeners.push(bound);
    const d = new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== bound);
    });
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
  isBefore(o: Position): boolean {
    return this.line < o.line || (this.line === o.line && this.character < o.character);
  }
  isEqual(o: Position): boolean {
    return this.line === o.line && this.character === o.character;
  }
  translate(): Position {
    return this;
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    if (typeof a === 'number') {
      this.start = new Position(a, b as number);
      this.end = new Position(c ?? 0, d ?? 0);
    } else {
      this.start = a;
      this.end = b as Position;
    }
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  contains(p: Position): boolean {
    return !p.isBefore(this.start) && !this.end.isBefore(p);
  }
}

export class Selection extends Range {
  constructor(readonly anchor: Position, readonly active: Position) {
    super(anchor, active);
  }
}

export class Uri {
  private constructor(readonly scheme: string, readonly authority: string, readonly path: string, readonly query = '', readonly fragment = '') {}
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`bad uri ${value}`);
    return new Uri(m[1], m[2] ?? '', decodeURIComponent(m[3]), m[4] ?? '', m[5] ?? '');
  }
  static file(p: string): Uri {
    return new Uri('file', '', p);
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...parts));
  }
  get fsPath(): string {
    return this.path;
  }
  with(c: { scheme?: string; path?: string }): Uri {
    return new Uri(c.scheme ?? this.scheme, this.authority, c.path ?? this.path, this.query, this.fragment);
  }
  toString(): string {
    const p = this.path.split('/').map(encodeURIComponent).join('/');
    return `${this.scheme}:${this.scheme === 'file' || this.authority ? '//' + this.authority : ''}${p}${this.query ? '?' + this.query : ''}${this.fragment ? '#' + this.fragment : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path };
  }
}

export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '', public supportThemeIcons = false) {}
  appendMarkdown(v: string): this {
    this.value += v;
    return this;
  }
  appendText(v: string): this {
    this.value += v;
    return this;
  }
  appendCodeblock(v: string): this {
    this.value += '\n```\n' + v + '\n```\n';
    return this;
  }
}

export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly RefactorExtract = new CodeActionKind('refactor.extract');
  static readonly RefactorInline = new CodeActionKind('refactor.inline');
  static readonly RefactorMove = new CodeActionKind('refactor.move');
  static readonly RefactorRewrite = new CodeActionKind('refactor.rewrite');
  static readonly Source = new CodeActionKind('source');
  static readonly SourceOrganizeImports = new CodeActionKind('source.organizeImports');
  static readonly SourceFixAll = new CodeActionKind('source.fixAll');
  static readonly Notebook = new CodeActionKind('notebook');
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
}

class CodeAction {
  command?: unknown;
  diagnostics?: unknown[];
  isPreferred?: boolean;
  constructor(
    public title: string,
    public kind?: CodeActionKind,
  ) {}
}

class Hover {
  contents: MarkdownString[];
  constructor(contents: MarkdownString | MarkdownString[], public range?: Range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

export class InlayHint {
  tooltip?: string | MarkdownString;
  paddingLeft?: boolean;
  paddingRight?: boolean;
  textEdits?: unknown[];
  constructor(public position: Position, public label: string | InlayHintLabelPart[], public kind?: number) {}
}

export class InlayHintLabelPart {
  tooltip?: string | MarkdownString;
  location?: unknown;
  command?: unknown;
  constructor(public value: string) {}
}

export class CodeLens {
  constructor(public range: Range, public command?: { title: string; command: string; arguments?: unknown[] }) {}
  get isResolved(): boolean {
    return this.command !== undefined;
  }
}

export class Diagnostic {
  source?: string;
  code?: unknown;
  tags?: number[];
  relatedInformation?: unknown[];
  constructor(public range: Range, public message: string, public severity = 0) {}
}

export class CancellationError extends Error {}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class FakeDocument {
  version = 1;
  isClosed = false;
  isDirty = false;
  readonly isUntitled = false;
  readonly eol = 1;
  constructor(readonly uri: Uri, public languageId: string, private text: string) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  getText(range?: Range): string {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  offsetAt(p: Position): number {
    const lines = this.text.split('\n');
    let off = 0;
    for (let i = 0; i < p.line && i < lines.length; i++) off += lines[i].length + 1;
    return off + p.character;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  lineAt(line: number): { text: string; range: Range } {
    const t = this.text.split('\n')[line] ?? '';
    return { text: t, range: new Range(line, 0, line, t.length) };
  }
  /** Replaces the whole text; returns the change event VS Code would send. */
  replaceAll(text: string): { document: FakeDocument; contentChanges: unknown[]; reason: undefined } {
    const end = this.positionAt(this.text.length);
    const change = { range: new Range(new Position(0, 0), end), rangeOffset: 0, rangeLength: this.text.length, text };
    this.text = text;
    this.version++;
    return { document: this, contentChanges: [change], reason: undefined };
  }
}

type Filter = { language?: string; scheme?: string; pattern?: string };

function globMatch(pattern: string, file: string): boolean {
  const braces = /\{([^}]*)\}/.exec(pattern);
  if (braces) return braces[1].split(',').some((alt) => globMatch(pattern.replace(braces[0], alt), file));
  const re = pattern
    .replace(/[.+^$()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '(?:.*/)?')
    .replace(/\*\*/g, '.*')
    .replace(/\*/g, '[^/]*');
  return new RegExp(`^${re}$`).test(file) || new RegExp(`/${re}$`).test(file);
}

export interface FakeState {
  /** User (global) settings, `kforecast.x` → value. */
  config: Record<string, unknown>;
  /** Workspace settings (`.vscode/settings.json`). */
  workspaceConfig: Record<string, unknown>;
  /** `workspace.isTrusted`. */
  trusted: boolean;
  /** `setContext` keys. */
  contexts: Map<string, unknown>;
  documents: FakeDocument[];
  commands: Map<string, (...args: unknown[]) => unknown>;
  providers: Map<string, unknown[]>;
  messages: { level: string; text: string }[];
  output: string[];
  diagnostics: Map<string, unknown[]>;
  statusBar: { text: string; tooltip?: string; visible: boolean };
  activeTextEditor?: { document: FakeDocument; selection: Selection };
  opened: Map<string, string>;
  onDidOpen: EventEmitter<FakeDocument>;
  onDidChange: EventEmitter<unknown>;
  onDidClose: EventEmitter<FakeDocument>;
  onDidChangeConfiguration: EventEmitter<{ affectsConfiguration(s: string): boolean }>;
}

export function createFakeVscode(): { api: Record<string, unknown>; state: FakeState } {
  const event = <T>(): EventEmitter<T> => new EventEmitter<T>();
  const state: FakeState = {
    config: {},
    workspaceConfig: {},
    trusted: true,
    contexts: new Map(),
    documents: [],
    commands: new Map(),
    providers: new Map(),
    messages: [],
    output: [],
    diagnostics: new Map(),
    statusBar: { text: '', visible: false },
    opened: new Map(),
    onDidOpen: event(),
    onDidChange: event(),
    onDidClose: event(),
    onDidChangeConfiguration: event(),
  };
  const register = (kind: string) => (_selector: unknown, provider: unknown) => {
    const list = state.providers.get(kind) ?? [];
    list.push(provider);
    state.providers.set(kind, list);
    return new Disposable();
  };
  const message = (level: string) => (text: string) => {
    state.messages.push({ level, text });
    return Promise.resolve(undefined);
  };
  const matchOne = (f: Filter | string, doc: FakeDocument): boolean => {
    if (typeof f === 'string') return f === doc.languageId;
    if (f.language && f.language !== doc.languageId) return false;
    if (f.scheme && f.scheme !== doc.uri.scheme) return false;
    if (f.pattern && !globMatch(f.pattern, doc.uri.path)) return false;
    return true;
  };
  const outputChannel = (name: string) => ({
    name,
    append: (v: string) => state.output.push(v),
    appendLine: (v: string) => state.output.push(v),
    replace: () => undefined,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  });

  const api: Record<string, unknown> = {
    version: '1.90.0',
    Disposable,
    EventEmitter,
    Position,
    Range,
    Selection,
    Uri,
    MarkdownString,
    Hover,
    InlayHint,
    InlayHintLabelPart,
    InlayHintKind: { Type: 1, Parameter: 2 },
    CodeActionKind,
    CodeAction,
    CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
    CodeLens,
    Diagnostic,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    CancellationError,
    CancellationTokenSource,
    ThemeColor,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
    EndOfLine: { LF: 1, CRLF: 2 },
    TabInputText: class {},
    TabInputTextDiff: class {},
    TabInputCustom: class {},
    TabInputNotebook: class {},
    TabInputNotebookDiff: class {},
    env: { appName: 'fake', language: 'en', machineId: 'test', sessionId: 'test', openExternal: () => Promise.resolve(true) },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
        state.commands.set(id, fn);
        return new Disposable(() => state.commands.delete(id));
      },
      executeCommand: (id: string, ...args: unknown[]) => {
        if (id === 'setContext') {
          state.contexts.set(String(args[0]), args[1]);
          return Promise.resolve(undefined);
        }
        return Promise.resolve(state.commands.get(id)?.(...args));
      },
    },
    window: {
      createOutputChannel: outputChannel,
      createStatusBarItem: () => {
        const item = {
          name: '',
          command: undefined as unknown,
          backgroundColor: undefined as unknown,
          set text(v: string) {
            state.statusBar.text = v;
          },
          get text() {
            return state.statusBar.text;
          },
          set tooltip(v: string | undefined) {
            state.statusBar.tooltip = v;
          },
          get tooltip() {
            return state.statusBar.tooltip;
          },
          show: () => {
            state.statusBar.visible = true;
          },
          hide: () => {
            state.statusBar.visible = false;
          },
          dispose: () => undefined,
        };
        return item;
      },
      showErrorMessage: message('error'),
      showWarningMessage: message('warning'),
      showInformationMessage: message('info'),
      showQuickPick: (items: string[]) => Promise.resolve(items[0]),
      setStatusBarMessage: (text: string) => {
        state.messages.push({ level: 'status', text });
        return new Disposable();
      },
      showTextDocument: () => Promise.resolve(undefined),
      withProgress: (_o: unknown, task: (p: unknown, t: unknown) => unknown) =>
        task({ report: () => undefined }, new CancellationTokenSource().token),
      get activeTextEditor() {
        return state.activeTextEditor;
      },
      visibleTextEditors: [],
      onDidChangeActiveTextEditor: event().event,
      onDidChangeVisibleTextEditors: event().event,
      tabGroups: { all: [], onDidChangeTabs: event().event, onDidChangeTabGroups: event().event },
    },
    workspace: {
      get textDocuments() {
        return state.documents;
      },
      workspaceFolders: undefined,
      get isTrusted() {
        return state.trusted;
      },
      onDidGrantWorkspaceTrust: event().event,
      getConfiguration: (section?: string) => {
        const full = (key: string): string => (section ? `${section}.${key}` : key);
        return {
          get: (key: string, def?: unknown) => {
            const k = full(key);
            if (k in state.workspaceConfig) return state.workspaceConfig[k];
            return k in state.config ? state.config[k] : def;
          },
          has: (key: string) => full(key) in state.config || full(key) in state.workspaceConfig,
          inspect: (key: string) => ({ key: full(key), globalValue: state.config[full(key)], workspaceValue: state.workspaceConfig[full(key)] }),
          update: (key: string, value: unknown, target: number | boolean) => {
            const store = target === 1 || target === true ? state.config : state.workspaceConfig;
            if (value === undefined) delete store[full(key)];
            else store[full(key)] = value;
            return Promise.resolve();
          },
        };
      },
      onDidOpenTextDocument: state.onDidOpen.event,
      onDidChangeTextDocument: state.onDidChange.event,
      onDidCloseTextDocument: state.onDidClose.event,
      onDidSaveTextDocument: event().event,
      onWillSaveTextDocument: event().event,
      onDidChangeConfiguration: state.onDidChangeConfiguration.event,
      onDidChangeWorkspaceFolders: event().event,
      onDidCreateFiles: event().event,
      onDidRenameFiles: event().event,
      onDidDeleteFiles: event().event,
      onWillCreateFiles: event().event,
      onWillRenameFiles: event().event,
      onWillDeleteFiles: event().event,
      createFileSystemWatcher: () => ({ onDidCreate: event().event, onDidChange: event().event, onDidDelete: event().event, dispose: () => undefined }),
      registerTextDocumentContentProvider: (scheme: string, provider: { provideTextDocumentContent(u: Uri): string }) => {
        state.providers.set(`content:${scheme}`, [provider]);
        return new Disposable();
      },
      openTextDocument: (uri: Uri) => {
        const provider = state.providers.get(`content:${uri.scheme}`)?.[0] as { provideTextDocumentContent(u: Uri): string } | undefined;
        const text = provider ? provider.provideTextDocumentContent(uri) : '';
        state.opened.set(uri.toString(), text);
        return Promise.resolve(new FakeDocument(uri, 'plaintext', text));
      },
      applyEdit: () => Promise.resolve(true),
    },
    languages: {
      match: (selector: Filter | string | (Filter | string)[], doc: FakeDocument) =>
        (Array.isArray(selector) ? selector : [selector]).some((f) => matchOne(f, doc)) ? 10 : 0,
      createDiagnosticCollection: (name?: string) => ({
        name,
        set: (uri: Uri, diags: unknown[]) => state.diagnostics.set(uri.toString(), diags ?? []),
        delete: (uri: Uri) => state.diagnostics.delete(uri.toString()),
        clear: () => state.diagnostics.clear(),
        forEach: () => undefined,
        get: (uri: Uri) => state.diagnostics.get(uri.toString()),
        has: (uri: Uri) => state.diagnostics.has(uri.toString()),
        dispose: () => undefined,
      }),
      setTextDocumentLanguage: (doc: FakeDocument, languageId: string) => {
        doc.languageId = languageId;
        return Promise.resolve(doc);
      },
      registerInlayHintsProvider: register('inlayHints'),
      registerCodeLensProvider: register('codeLens'),
      registerHoverProvider: register('hover'),
      registerCodeActionsProvider: register('codeAction'),
    },
  };

  // Anything else the client touches: a no-op registration.
  const languages = api.languages as Record<string, unknown>;
  api.languages = new Proxy(languages, {
    get: (target, prop: string) => (prop in target ? target[prop] : prop.startsWith('register') ? register(prop) : undefined),
  });
  // Classes the client only subclasses or rarely builds: empty stand-ins.
  const stub = (): unknown =>
    class {
      constructor(...args: unknown[]) {
        Object.assign(this, { args });
      }
    };
  const proxied = new Proxy(api, {
    get: (target, prop: string | symbol) => {
      if (typeof prop !== 'string' || prop in target) return target[prop as string];
      if (/^[A-Z]/.test(prop)) {
        target[prop] = stub();
        return target[prop];
      }
      return undefined;
    },
  });
  return { api: proxied, state };
}

/** Makes `require('vscode')` return the fake. */
export function installFakeVscode(api: Record<string, unknown>): void {
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string; _cache?: unknown };
  const original = mod._resolveFilename;
  mod._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return 'vscode';
    return original.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: api } as unknown as NodeModule;
}
