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

/** The deprecated `kforecast.llmEndpoint` object. */
export interface LlmEndpoint {
  url: string;
  model: string;
  apiKeyEnv?: string;
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

/** Reads one `kforecast.<key>` value; `undefined` or `null` means "not set". */
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
    problems.push(`kforecast.gpuWorkers must be an array of {"url", "tokenEnv"?} objects, got ${show(value)}`);
    return undefined;
  }
  const workers: GpuWorker[] = [];
  value.forEach((entry, i) => {
    // A bare string is accepted as a worker URL.
    const obj = typeof entry === 'string' ? { url: entry } : entry;
    if (!isObject(obj) || !nonEmptyString(obj.url)) {
      problems.push(`kforecast.gpuWorkers[${i}] needs a "url" string, got ${show(entry)}`);
      return;
    }
    const url = obj.url.trim();
    if (url !== 'local' && !isHttpUrl(url)) {
      problems.push(`kforecast.gpuWorkers[${i}].url must be an http:// or https:// URL or "local", got ${show(url)}`);
      return;
    }
    const worker: GpuWorker = { url };
    if (nonEmptyString(obj.token)) worker.token = obj.token;
    else if (!isUnset(obj.token)) problems.push(`kforecast.gpuWorkers[${i}].token must be a string`);
    if (isEnvName(obj.tokenEnv)) worker.tokenEnv = obj.tokenEnv.trim();
    else if (!isUnset(obj.tokenEnv)) problems.push(`kforecast.gpuWorkers[${i}].tokenEnv must be the name of an environment variable`);
    workers.push(worker);
  });
  return workers;
}

export function parseLlmEndpoint(value: unknown, problems: string[]): LlmEndpoint | undefined {
  if (isUnset(value)) return undefined;
  if (!isObject(value)) {
    problems.push(`kforecast.llmEndpoint must be an object {"url", "model", "apiKeyEnv"}, got ${show(value)}`);
    return undefined;
  }
  if (isUnset(value.url) && isUnset(value.model) && isUnset(value.apiKeyEnv)) return undefined;
  if (!nonEmptyString(value.url) || !nonEmptyString(value.model)) {
    problems.push(`kforecast.llmEndpoint needs "url" and "model" strings, got ${show(value)}`);
    return undefined;
  }
  if (!isHttpUrl(value.url.trim())) {
    problems.push(`kforecast.llmEndpoint.url must be an http:// or https:// URL, got ${show(value.url)}`);
    return undefined;
  }
  const endpoint: LlmEndpoint = { url: value.url.trim(), model: value.model.trim() };
  if (isEnvName(value.apiKeyEnv)) endpoint.apiKeyEnv = value.apiKeyEnv.trim();
  // The value is not echoed: it may be the key itself, pasted by mistake.
  else if (!isUnset(value.apiKeyEnv)) problems.push('kforecast.llmEndpoint.apiKeyEnv must be the NAME of an environment variable that holds the API key');
  return endpoint;
}

/**
 * `kforecast.llm.*` (and the deprecated `kforecast.llmEndpoint`, used only while
 * `kforecast.llm.endpoint` is empty) as the server's `llm` object.
 */
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

  const legacy = parseLlmEndpoint(read('llmEndpoint'), problems);
  if (legacy !== undefined) {
    const endpointGiven = typeof endpoint === 'string' ? endpoint.trim() !== '' : !isUnset(endpoint);
    if (!endpointGiven) {
      llm.endpoint = legacy.url;
      llm.model = legacy.model;
      if (legacy.apiKeyEnv !== undefined) llm.apiKeyEnv = legacy.apiKeyEnv;
    } else {
      problems.push('kforecast.llmEndpoint (deprecated) is ignored because kforecast.llm.endpoint is set; move its model and apiKeyEnv to kforecast.llm.*');
    }
  }
  return Object.keys(llm).length > 0 ? llm : undefined;
}

/**
 * `kforecast.search.*` (and the deprecated `kforecast.searchBudget`, used only while
 * `kforecast.search.budget` is at its default) as the server's `search` object.
 */
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
  const legacy = read('searchBudget');
  if (!isUnset(legacy)) {
    if (!wholeIn(legacy, 1, 1000)) {
      problems.push(`kforecast.searchBudget must be a whole number of GPU runs from 1 to 1000, got ${show(legacy)}`);
    } else if (isUnset(budget) || budget === DEFAULT_SEARCH_BUDGET) {
      search.budget = legacy;
    } else if (legacy !== budget) {
      problems.push('kforecast.searchBudget (deprecated) is ignored because kforecast.search.budget is set');
    }
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
    else problems.push(`kforecast.confidenceThreshold must be a number from 0 to 1, got ${show(threshold)}`);
  }

  const mode = read('baselineMode');
  if (!isUnset(mode)) {
    if (mode === 'git' || mode === 'open') settings.baselineMode = mode;
    else problems.push(`kforecast.baselineMode must be "git" or "open", got ${show(mode)}`);
  }

  const device = read('device');
  if (!isUnset(device)) {
    if (nonEmptyString(device)) settings.device = device.trim();
    else problems.push(`kforecast.device must be a non-empty string, got ${show(device)}`);
  }

  const maxFileSize = read('maxFileSize');
  if (!isUnset(maxFileSize)) {
    if (wholeIn(maxFileSize, 1024, Number.MAX_SAFE_INTEGER)) settings.maxFileSize = maxFileSize;
    else problems.push(`kforecast.maxFileSize must be a whole number of bytes ≥ 1024, got ${show(maxFileSize)}`);
  }

  const workers = parseGpuWorkers(read('gpuWorkers'), problems);
  if (workers !== undefined) settings.gpuWorkers = workers;

  const autoVerify = read('autoVerify');
  if (!isUnset(autoVerify)) {
    if (typeof autoVerify === 'boolean') settings.autoVerify = autoVerify;
    else problems.push(`kforecast.autoVerify must be true or false, got ${show(autoVerify)}`);
  }

  const verifyTimeout = read('verifyTimeout');
  if (!isUnset(verifyTimeout)) {
    if (wholeIn(verifyTimeout, 1, 3600)) settings.verifyTimeout = verifyTimeout;
    else problems.push(`kforecast.verifyTimeout must be a whole number of seconds from 1 to 3600, got ${show(verifyTimeout)}`);
  }

  const learn = read('learnFromMeasurements');
  if (!isUnset(learn)) {
    if (typeof learn === 'boolean') settings.learnFromMeasurements = learn;
    else problems.push(`kforecast.learnFromMeasurements must be true or false, got ${show(learn)}`);
  }

  const llm = parseLlm(read, problems);
  if (llm !== undefined) settings.llm = llm;

  const search = parseSearch(read, problems);
  if (search !== undefined) settings.search = search;

  const cacheDir = read('cacheDir');
  if (!isUnset(cacheDir)) {
    if (nonEmptyString(cacheDir)) settings.cacheDir = cacheDir.trim();
    else problems.push(`kforecast.cacheDir must be a path, got ${show(cacheDir)}`);
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
