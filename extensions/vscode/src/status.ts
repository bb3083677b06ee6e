// The status bar item's text and tooltip. Pure (no `vscode` import).

/** What `kforecast/status` answers (all fields optional: older servers may not have them). */
export interface ServerStatus {
  forecaster?: string;
  device?: string;
  documents?: number;
  jobs?: number;
  store?: string | null;
  gpuWorkers?: { url: string; state?: string }[];
}

export type ClientState = 'stopped' | 'starting' | 'running' | 'failed' | 'missing';

export interface StatusInput {
  state: ClientState;
  server?: ServerStatus;
  /** Worker URLs in the settings (shown when the server does not report its workers). */
  configuredWorkers: number;
  /** Commands the extension has sent and not yet seen answered. */
  pendingCommands: number;
  serverPath?: string;
  version?: string;
}

export interface StatusView {
  text: string;
  tooltip: string;
  warning: boolean;
}

export function parseServerStatus(value: unknown): ServerStatus | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const status: ServerStatus = {};
  if (typeof v.forecaster === 'string') status.forecaster = v.forecaster;
  if (typeof v.device === 'string') status.device = v.device;
  if (typeof v.documents === 'number') status.documents = v.documents;
  if (typeof v.jobs === 'number') status.jobs = v.jobs;
  if (typeof v.store === 'string' || v.store === null) status.store = v.store as string | null;
  if (Array.isArray(v.gpuWorkers)) {
    status.gpuWorkers = v.gpuWorkers
      .filter((w): w is Record<string, unknown> => typeof w === 'object' && w !== null)
      .map((w) => ({ url: String(w.url ?? ''), state: typeof w.state === 'string' ? w.state : undefined }));
  }
  return status;
}

export function gpuSummary(input: StatusInput): string {
  const workers = input.server?.gpuWorkers;
  if (workers && workers.length > 0) {
    // The server reports what its last job on each worker said: up, down or unused.
    const up = workers.filter((w) => w.state === 'up' || w.state === 'ready' || w.state === 'busy').length;
    const down = workers.filter((w) => w.state === 'down').length;
    if (up + down > 0) return `GPU ${up}/${workers.length} up`;
    if (workers.length === 1 && workers[0].url === 'local') return 'GPU: local';
    return `GPU ${workers.length} configured`;
  }
  return input.configuredWorkers > 0 ? `GPU ${input.configuredWorkers} configured` : 'no GPU';
}

export function statusView(input: StatusInput): StatusView {
  switch (input.state) {
    case 'missing':
      return { text: '$(error) kforecast', tooltip: 'kforecast: server binary not found. Click for the log.', warning: true };
    case 'failed':
      return { text: '$(error) kforecast', tooltip: 'kforecast: the server stopped. Click for the log.', warning: true };
    case 'stopped':
      return { text: '$(circle-slash) kforecast', tooltip: 'kforecast: not running (opens with a CUDA or Triton file)', warning: false };
    case 'starting':
      return { text: '$(sync~spin) kforecast', tooltip: 'kforecast: starting…', warning: false };
    case 'running':
      break;
  }
  const jobs = (input.server?.jobs ?? 0) + input.pendingCommands;
  const forecaster = input.server?.forecaster ?? 'forecaster ?';
  const parts = [forecaster, gpuSummary(input)];
  if (jobs > 0) parts.push(`${jobs} job${jobs === 1 ? '' : 's'}`);
  const icon = jobs > 0 ? '$(sync~spin)' : '$(pulse)';
  const lines = [
    `kforecast${input.version ? ' ' + input.version : ''}`,
    `forecaster: ${forecaster}`,
    `device: ${input.server?.device ?? '?'}`,
    `GPU workers: ${gpuSummary(input)}`,
    `jobs in flight: ${jobs}`,
  ];
  if (input.server?.documents !== undefined) lines.push(`open documents: ${input.server.documents}`);
  if (input.server?.store) lines.push(`cache: ${input.server.store}`);
  if (input.serverPath) lines.push(`server: ${input.serverPath}`);
  return { text: `${icon} kforecast: ${parts.join(' · ')}`, tooltip: lines.join('\n'), warning: false };
}
