// Command ids and their `workspace/executeCommand` arguments. Pure (no `vscode` import).

export const SERVER_COMMANDS = {
  verify: 'kforecast.verify',
  search: 'kforecast.search',
  setBaseline: 'kforecast.setBaseline',
  showForecast: 'kforecast.showForecast',
} as const;

export type ServerCommand = (typeof SERVER_COMMANDS)[keyof typeof SERVER_COMMANDS];

/** Server commands that the extension registers itself (palette, code lenses). */
export const OWN_COMMANDS: ReadonlySet<string> = new Set(Object.values(SERVER_COMMANDS));

/** Commands that act on a single kernel: without one under the cursor the user is asked to pick. */
export const NEEDS_KERNEL: ReadonlySet<string> = new Set([
  SERVER_COMMANDS.verify,
  SERVER_COMMANDS.search,
  SERVER_COMMANDS.showForecast,
]);

export interface CommandTarget {
  uri: string;
  kernel?: string;
}

/** `[{"uri": …, "kernel"?: …}]`, the argument list every kforecast command takes. */
export function commandArguments(target: CommandTarget): [CommandTarget] {
  const arg: CommandTarget = { uri: target.uri };
  if (target.kernel !== undefined && target.kernel.length > 0) arg.kernel = target.kernel;
  return [arg];
}

/**
 * A command invoked from a code lens arrives with the server's own arguments
 * (`{uri, kernel}`); from the palette or a key binding it arrives with none, or
 * with VS Code's own (a Uri for editor/title menus). Returns the server's
 * arguments when they are usable as is.
 */
export function serverArgumentsFrom(args: unknown[]): CommandTarget | undefined {
  const first = args[0];
  if (typeof first === 'object' && first !== null && !Array.isArray(first)) {
    const o = first as Record<string, unknown>;
    if (typeof o.uri === 'string') {
      const target: CommandTarget = { uri: o.uri };
      if (typeof o.kernel === 'string') target.kernel = o.kernel;
      return target;
    }
  }
  return undefined;
}

/** The server's advertised commands, minus those the extension already registers. */
export function commandsForClientToRegister(advertised: readonly string[] | undefined): string[] {
  return (advertised ?? []).filter((c) => !OWN_COMMANDS.has(c));
}

/** A short message for a server error, without the JSON-RPC prefix noise. */
export function errorMessage(command: string, error: unknown): string {
  let text: string;
  if (error instanceof Error) text = error.message;
  else if (typeof error === 'object' && error !== null && 'message' in error) text = String((error as { message: unknown }).message);
  else text = String(error);
  return `kforecast: ${command} failed: ${text}`;
}
