// Finds the `kforecast` binary: the `kforecast.server.path` setting, else the
// binary bundled in the extension's `server/` folder, else `kforecast` on PATH.
// Pure: the file system and environment are passed in, so it is unit-tested
// without VS Code.

import * as path from 'path';

export type ServerSource = 'setting' | 'bundled' | 'path';

export type Resolution =
  | { ok: true; path: string; source: ServerSource }
  | { ok: false; message: string };

export interface ResolveInput {
  /** The `kforecast.server.path` setting (may be empty). */
  setting: string | undefined | null;
  /** The extension's install folder. */
  extensionPath: string;
  /** Folder that relative `serverPath` values are resolved against (the first workspace folder). */
  workspaceFolder?: string;
  /** process.platform */
  platform: string;
  env: Record<string, string | undefined>;
  homeDir?: string;
  /** True when `p` is an existing file that can be executed. */
  isExecutable: (p: string) => boolean;
}

export const BINARY = 'kforecast';

export const INSTALL_HINT =
  'Install the .vsix for your platform (e.g. kforecast-0.2.0-linux-x64.vsix), which holds the server; ' +
  'or build it (`cargo build --release -p kforecast` in a kforecast checkout) and set `kforecast.server.path` to the binary, or put it on PATH.';

function pathApi(platform: string): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Names the binary may have on this platform. */
export function binaryNames(platform: string, env: Record<string, string | undefined>): string[] {
  if (platform !== 'win32') return [BINARY];
  const exts = (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter((e) => e.length > 0);
  return exts.map((e) => BINARY + e.toLowerCase());
}

/** Expands a leading `~` and resolves a relative path against the workspace folder. */
export function expandSetting(setting: string, input: Pick<ResolveInput, 'platform' | 'homeDir' | 'workspaceFolder'>): string {
  const p = pathApi(input.platform);
  let value = setting.trim();
  if ((value === '~' || value.startsWith('~/') || value.startsWith('~\\')) && input.homeDir) {
    value = p.join(input.homeDir, value.slice(1));
  }
  if (!p.isAbsolute(value) && input.workspaceFolder) value = p.join(input.workspaceFolder, value);
  return value;
}

export function resolveServerPath(input: ResolveInput): Resolution {
  const p = pathApi(input.platform);
  const names = binaryNames(input.platform, input.env);

  if (input.setting && input.setting.trim().length > 0) {
    const candidate = expandSetting(input.setting, input);
    if (input.isExecutable(candidate)) return { ok: true, path: candidate, source: 'setting' };
    return {
      ok: false,
      message: `kforecast: \`kforecast.server.path\` is set to "${input.setting}", but there is no executable at ${candidate}. ` +
        'Fix the setting, or clear it to use the bundled binary or `kforecast` on PATH.',
    };
  }

  for (const name of names) {
    const bundled = p.join(input.extensionPath, 'server', name);
    if (input.isExecutable(bundled)) return { ok: true, path: bundled, source: 'bundled' };
  }

  const dirs = (input.env.PATH ?? input.env.Path ?? '').split(input.platform === 'win32' ? ';' : ':');
  for (const dir of dirs) {
    if (dir.length === 0) continue;
    for (const name of names) {
      const candidate = p.join(dir, name);
      if (input.isExecutable(candidate)) return { ok: true, path: candidate, source: 'path' };
    }
  }

  return {
    ok: false,
    message: 'kforecast: cannot find the `kforecast` language server (no `kforecast.server.path` setting, ' +
      'no binary bundled in the extension, none on PATH). ' + INSTALL_HINT,
  };
}
