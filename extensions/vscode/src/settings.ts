// Maps the extension's `kforecast.*` configuration to the settings object the
// server reads (initializationOptions and workspace/didChangeConfiguration).
// Pure: no `vscode` import, so it is unit-tested without VS Code.

export type BaselineMode = 'git' | 'open';

export interface GpuWorker {
  url: string;
  token?: string;
}

export interface LlmEndpoint {
  url: string;
  model: string;
  apiKeyEnv?: string;
}

/** Exactly the keys the server understands; unset keys are left out so the server keeps its defaults. */
export interface ServerSettings {
  confidenceThreshold?: number;
  baselineMode?: BaselineMode;
  device?: string;
  maxFileSize?: number;
  gpuWorkers?: GpuWorker[];
  llmEndpoint?: LlmEndpoint;
  autoVerify?: boolean;
  searchBudget?: number;
  cacheDir?: string;
}

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
    problems.push(`kforecast.gpuWorkers must be an array of {"url", "token"?} objects, got ${show(value)}`);
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
    const worker: GpuWorker = { url: obj.url.trim() };
    if (nonEmptyString(obj.token)) worker.token = obj.token;
    else if (!isUnset(obj.token)) problems.push(`kforecast.gpuWorkers[${i}].token must be a string`);
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
  const endpoint: LlmEndpoint = { url: value.url.trim(), model: value.model.trim() };
  if (nonEmptyString(value.apiKeyEnv)) endpoint.apiKeyEnv = value.apiKeyEnv.trim();
  else if (!isUnset(value.apiKeyEnv)) problems.push('kforecast.llmEndpoint.apiKeyEnv must be the name of an environment variable');
  return endpoint;
}

/** Builds the server settings from the configuration; invalid values are reported and left out. */
export function buildServerSettings(read: ConfigReader): SettingsResult {
  const problems: string[] = [];
  const settings: ServerSettings = {};

  const threshold = read('confidenceThreshold');
  if (!isUnset(threshold)) {
    if (typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 && threshold <= 1) {
      settings.confidenceThreshold = threshold;
    } else {
      problems.push(`kforecast.confidenceThreshold must be a number from 0 to 1, got ${show(threshold)}`);
    }
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
    if (typeof maxFileSize === 'number' && Number.isInteger(maxFileSize) && maxFileSize >= 1024) {
      settings.maxFileSize = maxFileSize;
    } else {
      problems.push(`kforecast.maxFileSize must be a whole number of bytes ≥ 1024, got ${show(maxFileSize)}`);
    }
  }

  const workers = parseGpuWorkers(read('gpuWorkers'), problems);
  if (workers !== undefined) settings.gpuWorkers = workers;

  const llm = parseLlmEndpoint(read('llmEndpoint'), problems);
  if (llm !== undefined) settings.llmEndpoint = llm;

  const autoVerify = read('autoVerify');
  if (!isUnset(autoVerify)) {
    if (typeof autoVerify === 'boolean') settings.autoVerify = autoVerify;
    else problems.push(`kforecast.autoVerify must be true or false, got ${show(autoVerify)}`);
  }

  const budget = read('searchBudget');
  if (!isUnset(budget)) {
    if (typeof budget === 'number' && Number.isInteger(budget) && budget >= 1) settings.searchBudget = budget;
    else problems.push(`kforecast.searchBudget must be a whole number ≥ 1, got ${show(budget)}`);
  }

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
