// Maps the extension's `kforecast.*` configuration to the settings object the
// server reads (initializationOptions and workspace/didChangeConfiguration).
// Pure: no `vscode` import, so it is unit-tested without VS Code.

export type BaselineMode = 'git' | 'open';

export interface GpuWorker {
  /** `http(s)://host:port`, or `local` for a worker process on this machine. */
  url: string;
  token?: string;
  /** Name of the environment variable that holds the bearer token. */
  tokenEnv?: string;
}

/** `kforecast.llm.*`, sent to the server as one `llm` object. */
export interface LlmSettings {
  /** Empty: the LLM surrogate is off. */
  endpoint?: string;
  model?: string;
  /** The NAME of the environment variable holding the API key; the key itself is never a setting. */
  apiKeyEnv?: string;
  timeoutMs?: number;
  maxConcurrency?: number;
  retries?: number;
  weight?: number;
  /** Variants per search generation the LLM is asked to rewrite (0: none). */
  rewrites?: number;
}

/** `kforecast.search.*`, sent to the server as one `search` object. */
export interface SearchSettings {
  budget?: number;
  seed?: number;
}

/** Exactly the keys the server understands; unset keys are left out so the server keeps its defaults. */
export interface ServerSettings {
  confidenceThreshold?: number;
  baselineMode?: BaselineMode;
  device?: string;
  maxFileSize?: number;
  gpuWorkers?: GpuWorker[];
  autoVerify?: boolean;
  verifyTimeout?: number;
  learnFromMeasurements?: boolean;
  llm?: LlmSettings;
  search?: SearchSettings;
  cacheDir?: string;
}

/** The server's default `search.budget` (package.json declares the same; a test checks it). */
export const DEFAULT_SEARCH_BUDGET = 8;

export interface SettingsResult {
  settings: ServerSettings;
  /** One message per value that was invalid and therefore left out. */
  problems: string[];
}

/**
 * The flat names of version 0.1 and the grouped names that replace them. Their values
 * are moved once (see `planMigration`); the old names are no longer declared.
 */
export const RENAMED: Readonly<Record<string, string>> = {
  serverPath: 'server.path',
  serverLogLevel: 'server.logLevel',
  cacheDir: 'server.cacheDir',
  confidenceThreshold: 'forecast.confidenceThreshold',
  device: 'forecast.device',
  baselineMode: 'baseline.mode',
  maxFileSize: 'files.maxSize',
  gpuWorkers: 'gpu.workers',
  autoVerify: 'gpu.autoVerify',
  verifyTimeout: 'gpu.verifyTimeout',
  learnFromMeasurements: 'gpu.learnFromMeasurements',
  searchBudget: 'search.budget',
};

/**
 * The VS Code setting (without `kforecast.`) each server setting is read from, where
 * the names differ: settings are grouped as rust-analyzer groups them. A server key
 * kept its flat name in 0.1, so this is `RENAMED` less the extension's own settings
 * (`llm.*` and `search.*` keep the server's names).
 */
export const SETTING_FOR: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(RENAMED).filter(([old]) => !['serverPath', 'serverLogLevel', 'searchBudget'].includes(old)),
);

/** The VS Code setting a server key is read from (`confidenceThreshold` → `forecast.confidenceThreshold`). */
export function settingFor(serverKey: string): string {
  return SETTING_FOR[serverKey] ?? serverKey;
}

/** `kforecast.<the VS Code setting>` of a server key, for messages. */
export function name(serverKey: string): string {
  return `kforecast.${settingFor(serverKey)}`;
}

/**
 * Settings that send data (kernel source, to an LLM endpoint or a GPU worker), name a
 * secret (the environment variable a key or token is read from) or run kernels by
 * themselves. VS Code reads them from user settings only (`"scope": "application"`),
 * never from a repository's `.vscode/settings.json`, and they are off in an untrusted
 * workspace.
 */
export const SENSITIVE: readonly string[] = ['llm.endpoint', 'llm.apiKeyEnv', 'gpu.workers', 'gpu.autoVerify'];

/** The old names whose values are sensitive (`llmEndpoint` holds an endpoint and a key's variable). */
const SENSITIVE_OLD = new Set(['gpuWorkers', 'autoVerify', 'llmEndpoint']);

/** Where a setting's value is written: user settings, the workspace, or one folder of it. */
export type Level = 'global' | 'workspace' | 'workspaceFolder';
export const LEVELS: readonly Level[] = ['global', 'workspace', 'workspaceFolder'];

/** What `WorkspaceConfiguration.inspect` reports for one key (the levels that matter here). */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** One step of the migration: write `value` to `to` (unless `to` is undefined) and remove `from`, at `level`. */
export interface Move {
  from: string;
  to?: string;
  value?: unknown;
  level: Level;
}

export interface Migration {
  moves: Move[];
  /** Messages for old values that are not moved (a sensitive one in workspace settings; one the new name already overrides). */
  notes: string[];
}

const valueAt = (i: Inspected | undefined, level: Level): unknown => i?.[`${level}Value` as keyof Inspected];

/**
 * Plans moving the old flat settings (and the old `llmEndpoint` object) to their new
 * names, level by level. A sensitive value found in workspace settings is not moved:
 * it is left where it is and reported, since the new setting is read from user
 * settings only.
 */
export function planMigration(inspect: (key: string) => Inspected | undefined): Migration {
  const moves: Move[] = [];
  const notes: string[] = [];
  const pairs: [string, string, (v: unknown) => unknown][] = Object.entries(RENAMED).map(([from, to]) => [from, to, (v) => v]);
  for (const [from, to] of pairs) {
    for (const level of LEVELS) {
      const old = valueAt(inspect(from), level);
      if (old === undefined || old === null) continue;
      if (SENSITIVE_OLD.has(from) && level !== 'global') {
        notes.push(`kforecast.${from} in ${level} settings is ignored: kforecast.${to} is read from your user settings only (it sends data or runs kernels); move it there if you trust it.`);
        continue;
      }
      if (valueAt(inspect(to), level) !== undefined) {
        notes.push(`kforecast.${from} (${level} settings) is dropped: kforecast.${to} is set there.`);
        moves.push({ from, level });
      } else {
        moves.push({ from, to, value: old, level });
      }
    }
  }
  for (const level of LEVELS) {
    const old = valueAt(inspect('llmEndpoint'), level);
    if (!isObject(old)) continue;
    if (level !== 'global') {
      notes.push(`kforecast.llmEndpoint in ${level} settings is ignored: kforecast.llm.endpoint is read from your user settings only (it sends kernel source); move it there if you trust it.`);
      continue;
    }
    const parts: [string, unknown][] = [['llm.endpoint', old.url], ['llm.model', old.model], ['llm.apiKeyEnv', old.apiKeyEnv]];
    for (const [to, v] of parts) {
      if (nonEmptyString(v) && valueAt(inspect(to), level) === undefined) moves.push({ from: 'llmEndpoint', to, value: v.trim(), level });
    }
    moves.push({ from: 'llmEndpoint', level });
  }
  return { moves, notes };
}

/** The one-time notice after a migration: which names moved. */
export function migrationNotice(moves: readonly Move[]): string | undefined {
  const renamed = [...new Set(moves.filter((m) => m.to !== undefined).map((m) => `${m.from} → ${m.to}`))];
  if (renamed.length === 0) return undefined;
  return `kforecast: settings renamed and moved in your settings files: ${renamed.join(', ')}.`;
}

/**
 * The settings for an untrusted workspace (VS Code's restricted mode): no kernel runs
 * by itself and nothing goes to an LLM endpoint.
 */
export function restrictForUntrusted(settings: ServerSettings): ServerSettings {
  const out: ServerSettings = { ...settings, autoVerify: false, gpuWorkers: [] };
  if (out.llm) out.llm = { ...out.llm, endpoint: '' };
  else out.llm = { endpoint: '' };
  return out;
}

/**
 * Reads the value of one server key (`confidenceThreshold`, `llm.weight`): the extension
 * reads `kforecast.<settingFor(key)>`. `undefined` or `null` means "not set".
 */
export type ConfigReader = (key: string) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isUnset = (v: unknown): boolean => v === undefined || v === null || v === '';
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
const isHttpUrl = (v: string): boolean => /^https?:\/\//.test(v);
/** The name of an environment variable (the server refuses an empty one or one with `=`). */
const isEnvName = (v: unknown): v is string => nonEmptyString(v) && !v.includes('=');
const wholeIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const numberIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

function show(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function parseGpuWorkers(value: unknown, problems: string[]): GpuWorker[] | undefined {
  if (isUnset(value)) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${name('gpuWorkers')} must be an array of {"url", "tokenEnv"?} objects, got ${show(value)}`);
    return undefined;
  }
  const workers: GpuWorker[] = [];
  value.forEach((entry, i) => {
    // A bare string is accepted as a worker URL.
    const obj = typeof entry === 'string' ? { url: entry } : entry;
    if (!isObject(obj) || !nonEmptyString(obj.url)) {
      problems.push(`${name('gpuWorkers')}[${i}] needs a "url" string, got ${show(entry)}`);
      return;
    }
    const url = obj.url.trim();
    if (url !== 'local' && !isHttpUrl(url)) {
      problems.push(`${name('gpuWorkers')}[${i}].url must be an http:// or https:// URL or "local", got ${show(url)}`);
      return;
    }
    const worker: GpuWorker = { url };
    if (nonEmptyString(obj.token)) worker.token = obj.token;
    else if (!isUnset(obj.token)) problems.push(`${name('gpuWorkers')}[${i}].token must be a string`);
    if (isEnvName(obj.tokenEnv)) worker.tokenEnv = obj.tokenEnv.trim();
    else if (!isUnset(obj.tokenEnv)) problems.push(`${name('gpuWorkers')}[${i}].tokenEnv must be the name of an environment variable`);
    workers.push(worker);
  });
  return workers;
}

/** `kforecast.llm.*` as the server's `llm` object. */
export function parseLlm(read: ConfigReader, problems: string[]): LlmSettings | undefined {
  const llm: LlmSettings = {};

  const endpoint = read('llm.endpoint');
  if (endpoint !== undefined && endpoint !== null) {
    // An empty endpoint is sent too: it turns a running surrogate off.
    if (typeof endpoint === 'string' && (endpoint.trim() === '' || isHttpUrl(endpoint.trim()))) llm.endpoint = endpoint.trim();
    else problems.push(`kforecast.llm.endpoint must be an http:// or https:// URL (empty: off), got ${show(endpoint)}`);
  }
  const model = read('llm.model');
  if (model !== undefined && model !== null) {
    if (typeof model === 'string') llm.model = model.trim();
    else problems.push(`kforecast.llm.model must be a model name, got ${show(model)}`);
  }
  const keyEnv = read('llm.apiKeyEnv');
  if (!isUnset(keyEnv)) {
    if (isEnvName(keyEnv)) llm.apiKeyEnv = keyEnv.trim();
    // The value is not echoed: it may be the key itself, pasted by mistake.
    else problems.push('kforecast.llm.apiKeyEnv must be the NAME of an environment variable that holds the API key, not the key');
  }
  const whole = (key: 'timeoutMs' | 'maxConcurrency' | 'retries' | 'rewrites', min: number, max: number, what: string) => {
    const v = read(`llm.${key}`);
    if (isUnset(v)) return;
    if (wholeIn(v, min, max)) llm[key] = v;
    else problems.push(`kforecast.llm.${key} must be ${what} from ${min} to ${max}, got ${show(v)}`);
  };
  whole('timeoutMs', 100, 600_000, 'a whole number of milliseconds');
  whole('maxConcurrency', 1, 64, 'a whole number');
  whole('retries', 0, 10, 'a whole number');
  whole('rewrites', 0, 8, 'a whole number');
  const weight = read('llm.weight');
  if (!isUnset(weight)) {
    if (numberIn(weight, 0, 1)) llm.weight = weight;
    else problems.push(`kforecast.llm.weight must be a number from 0 to 1, got ${show(weight)}`);
  }

  return Object.keys(llm).length > 0 ? llm : undefined;
}

/** `kforecast.search.*` as the server's `search` object. */
export function parseSearch(read: ConfigReader, problems: string[]): SearchSettings | undefined {
  const search: SearchSettings = {};
  const budget = read('search.budget');
  if (!isUnset(budget)) {
    if (wholeIn(budget, 1, 1000)) search.budget = budget;
    else problems.push(`kforecast.search.budget must be a whole number of GPU runs from 1 to 1000, got ${show(budget)}`);
  }
  const seed = read('search.seed');
  if (!isUnset(seed)) {
    if (wholeIn(seed, 0, Number.MAX_SAFE_INTEGER)) search.seed = seed;
    else problems.push(`kforecast.search.seed must be a whole number ≥ 0, got ${show(seed)}`);
  }
  return Object.keys(search).length > 0 ? search : undefined;
}

/** Builds the server settings from the configuration; invalid values are reported and left out. */
export function buildServerSettings(read: ConfigReader): SettingsResult {
  const problems: string[] = [];
  const settings: ServerSettings = {};

  const threshold = read('confidenceThreshold');
  if (!isUnset(threshold)) {
    if (numberIn(threshold, 0, 1)) settings.confidenceThreshold = threshold;
    else problems.push(`${name('confidenceThreshold')} must be a number from 0 to 1, got ${show(threshold)}`);
  }

  const mode = read('baselineMode');
  if (!isUnset(mode)) {
    if (mode === 'git' || mode === 'open') settings.baselineMode = mode;
    else problems.push(`${name('baselineMode')} must be "git" or "open", got ${show(mode)}`);
  }

  const device = read('device');
  if (!isUnset(device)) {
    if (nonEmptyString(device)) settings.device = device.trim();
    else problems.push(`${name('device')} must be a non-empty string, got ${show(device)}`);
  }

  const maxFileSize = read('maxFileSize');
  if (!isUnset(maxFileSize)) {
    if (wholeIn(maxFileSize, 1024, Number.MAX_SAFE_INTEGER)) settings.maxFileSize = maxFileSize;
    else problems.push(`${name('maxFileSize')} must be a whole number of bytes ≥ 1024, got ${show(maxFileSize)}`);
  }

  const workers = parseGpuWorkers(read('gpuWorkers'), problems);
  if (workers !== undefined) settings.gpuWorkers = workers;

  const autoVerify = read('autoVerify');
  if (!isUnset(autoVerify)) {
    if (typeof autoVerify === 'boolean') settings.autoVerify = autoVerify;
    else problems.push(`${name('autoVerify')} must be true or false, got ${show(autoVerify)}`);
  }

  const verifyTimeout = read('verifyTimeout');
  if (!isUnset(verifyTimeout)) {
    if (wholeIn(verifyTimeout, 1, 3600)) settings.verifyTimeout = verifyTimeout;
    else problems.push(`${name('verifyTimeout')} must be a whole number of seconds from 1 to 3600, got ${show(verifyTimeout)}`);
  }

  const learn = read('learnFromMeasurements');
  if (!isUnset(learn)) {
    if (typeof learn === 'boolean') settings.learnFromMeasurements = learn;
    else problems.push(`${name('learnFromMeasurements')} must be true or false, got ${show(learn)}`);
  }

  const llm = parseLlm(read, problems);
  if (llm !== undefined) settings.llm = llm;

  const search = parseSearch(read, problems);
  if (search !== undefined) settings.search = search;

  const cacheDir = read('cacheDir');
  if (!isUnset(cacheDir)) {
    if (nonEmptyString(cacheDir)) settings.cacheDir = cacheDir.trim();
    else problems.push(`${name('cacheDir')} must be a path, got ${show(cacheDir)}`);
  }

  return { settings, problems };
}

/** The `workspace/didChangeConfiguration` payload. */
export function didChangeConfigurationParams(settings: ServerSettings): { settings: { kforecast: ServerSettings } } {
  return { settings: { kforecast: settings } };
}

/** Environment for the server process: KFORECAST_LOG and KFORECAST_CACHE_DIR from the settings. */
export function serverEnvironment(
  base: Record<string, string | undefined>,
  logLevel: unknown,
  cacheDir: string | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  if (nonEmptyString(logLevel) && logLevel !== 'default') env.KFORECAST_LOG = logLevel;
  if (cacheDir !== undefined) env.KFORECAST_CACHE_DIR = cacheDir;
  return env;
}
