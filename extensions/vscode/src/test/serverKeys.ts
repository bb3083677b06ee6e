// Reads the settings the server accepts from its Rust source, so the tests notice a
// server setting that the extension does not declare or forward.
//
//   server/kforecast/src/lsp/settings.rs  `Settings::apply` and `apply_search` match arms
//   server/kforecast/src/llm/mod.rs       `LlmConfig::apply_setting` match arms (`kforecast.llm.*`)
//
// Each arm whose pattern is string literals (`"key" =>`, `"a" | "b" =>`) is a key; the
// arm's text gives the value's type (`v.as_bool()`, `v.as_u64()`, …) and its range
// (the error message's "from A to B" or "≥ N"; a `{}` there is the constant named after
// the message, e.g. `rewrite::MAX_REWRITES`, read from its `const` in server/kforecast/src).

import * as fs from 'fs';
import * as path from 'path';

export type ValueType = 'boolean' | 'integer' | 'number' | 'string';

export interface ServerKey {
  /** Without the `kforecast.` prefix, e.g. `confidenceThreshold`, `llm.weight`, `search.budget`. */
  key: string;
  /** Where it was found (for messages). */
  source: string;
  type?: ValueType;
  minimum?: number;
  maximum?: number;
}

export const SETTINGS_RS = path.join('server', 'kforecast', 'src', 'lsp', 'settings.rs');
export const LLM_RS = path.join('server', 'kforecast', 'src', 'llm', 'mod.rs');

/** The text from the first `from` to the next `to` after it. */
function section(src: string, from: string, to: string, file: string): string {
  const start = src.indexOf(from);
  if (start < 0) throw new Error(`${file}: \`${from}\` not found; update src/test/serverKeys.ts`);
  const end = src.indexOf(to, start + from.length);
  if (end < 0) throw new Error(`${file}: \`${to}\` not found after \`${from}\`; update src/test/serverKeys.ts`);
  return src.slice(start, end);
}

const ARM = /^[ \t]*("[^"\n]*"(?:[ \t]*\|[ \t]*"[^"\n]*")*)[ \t]*=>/gm;

function typeOf(text: string): ValueType | undefined {
  if (/\bv\.as_bool\(\)/.test(text)) return 'boolean';
  if (/\bv\.as_u64\(\)/.test(text)) return 'integer';
  if (/\bv\.as_f64\(\)/.test(text)) return 'number';
  if (/\bv\.as_str\(\)|\btext\(v\)/.test(text)) return 'string';
  return undefined;
}

/** `const NAME: T = 123;` in every .rs file under `dir`. */
function constants(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of constants(p)) out.set(k, v);
    else if (entry.name.endsWith('.rs')) {
      for (const m of fs.readFileSync(p, 'utf8').matchAll(/\bconst ([A-Z][A-Z0-9_]*): *[\w:]+ *= *([\d_]+(?:\.\d+)?)\s*;/g)) {
        out.set(m[1], Number(m[2].replace(/_/g, '')));
      }
    }
  }
  return out;
}

/** The string-literal match arms of `body`, each with the keys it names and its text. */
function arms(body: string, prefix: string, source: string, consts: Map<string, number>): ServerKey[] {
  const starts = [...body.matchAll(ARM)];
  const out: ServerKey[] = [];
  starts.forEach((m, i) => {
    const text = body.slice(m.index, i + 1 < starts.length ? starts[i + 1].index : body.length);
    const names = [...m[1].matchAll(/"([^"]*)"/g)].map((n) => n[1]);
    const range = /from (\d+|\{\}) to (\d+|\{\})/.exec(text) ?? /(≥) (\d+|\{\})/.exec(text);
    // `{}` bounds: the constants named after the message, in order.
    const args = range ? [...text.slice(range.index).matchAll(/\b([A-Z][A-Z0-9_]+)\b/g)].map((a) => a[1]).filter((a) => consts.has(a)) : [];
    const bound = (b: string): number => {
      if (b !== '{}') return Number(b);
      const name = args.shift();
      if (name === undefined) throw new Error(`${source}: cannot resolve the \`{}\` bound of ${prefix}${names[0]}; update src/test/serverKeys.ts`);
      return consts.get(name)!;
    };
    let minimum: number | undefined;
    let maximum: number | undefined;
    if (range?.[1] === '≥') minimum = bound(range[2]);
    else if (range) [minimum, maximum] = [bound(range[1]), bound(range[2])];
    for (const name of names) out.push({ key: prefix + name, source, type: typeOf(text), minimum, maximum });
  });
  return out;
}

/** Every `kforecast.*` key the server accepts, read from the sources under `repo`. */
export function serverKeys(repo: string): ServerKey[] {
  const settings = fs.readFileSync(path.join(repo, SETTINGS_RS), 'utf8');
  const llm = fs.readFileSync(path.join(repo, LLM_RS), 'utf8');
  const apply = section(settings, 'pub fn apply(', 'fn apply_search(', SETTINGS_RS);
  const search = section(settings, 'fn apply_search(', '#[cfg(test)]', SETTINGS_RS);
  const llmApply = section(llm, 'pub fn apply_setting(', 'pub fn apply(', LLM_RS);

  const consts = constants(path.join(repo, 'server', 'kforecast', 'src'));
  const keys = [...arms(apply, '', SETTINGS_RS, consts), ...arms(search, '', SETTINGS_RS, consts), ...arms(llmApply, 'llm.', LLM_RS, consts)];
  // Guards: `k if k == "llm" || k == "llmEndpoint" || k.starts_with("llm.") =>`.
  for (const m of apply.matchAll(/\bk == "([^"]+)"/g)) keys.push({ key: m[1], source: SETTINGS_RS });
  for (const m of apply.matchAll(/starts_with\("([^"]+)"\)/g)) {
    if (m[1] !== 'llm.') throw new Error(`${SETTINGS_RS}: settings starting with \`${m[1]}\` are new; update src/test/serverKeys.ts`);
  }
  // Keys accepted and ignored for now (`const RESERVED: [&str; N] = ["cacheDir"];`).
  const reserved = /const RESERVED[^=]*=\s*\[([^\]]*)\]/.exec(settings);
  for (const m of reserved?.[1].matchAll(/"([^"]+)"/g) ?? []) keys.push({ key: m[1], source: `${SETTINGS_RS} (RESERVED)` });

  const seen = new Map<string, ServerKey>();
  for (const k of keys) if (!seen.has(k.key)) seen.set(k.key, k);
  return [...seen.values()];
}
