// Finds kernel definitions in a document's text so that commands can name the
// kernel under the cursor. A light, tolerant scan (the server does the real
// parsing): CUDA `__global__` functions with a body, and Python functions
// decorated with `@triton.jit` / `@jit`. Pure (no `vscode` import).

export interface KernelSpan {
  name: string;
  /** First line of the definition (0-based; a Triton kernel starts at its first decorator). */
  startLine: number;
  /** Last line of the body (0-based, inclusive). */
  endLine: number;
}

/** Blanks out comments and string/char literals, keeping offsets and newlines. */
function blankCommentsAndStrings(text: string, python: boolean): string {
  const out = text.split('');
  let i = 0;
  const n = text.length;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < n; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < n) {
    const c = text[i];
    if (!python && c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (!python && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      blank(i, stop);
      i = stop;
    } else if (python && c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      blank(i, stop);
      i = stop;
    } else if (python && (text.startsWith('"""', i) || text.startsWith("'''", i))) {
      const q = text.slice(i, i + 3);
      const end = text.indexOf(q, i + 3);
      const stop = end < 0 ? n : end + 3;
      blank(i + 1, stop - 1);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else {
      i++;
    }
  }
  return out.join('');
}

/** Python text with comments and string contents blanked (offsets and newlines kept). */
export function pythonCode(text: string): string {
  return blankCommentsAndStrings(text, true);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Index just past the bracket that closes the one at `open`, or -1. */
function matchBracket(text: string, open: number): number {
  const o = text[open];
  const c = o === '(' ? ')' : o === '{' ? '}' : o === '[' ? ']' : '>';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i + 1;
  }
  return -1;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

export function findCudaKernels(source: string): KernelSpan[] {
  const text = blankCommentsAndStrings(source, false);
  const starts = lineStarts(text);
  const kernels: KernelSpan[] = [];
  const re = /\b__global__\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    let i = m.index + m[0].length;
    let lastIdent: string | undefined;
    let paramsOpen = -1;
    // Walk the declaration: skip attribute groups, remember the last identifier before `(`.
    while (i < text.length) {
      const ch = text[i];
      if (/\s/.test(ch) || ch === '*' || ch === '&' || ch === ':') {
        i++;
        continue;
      }
      if (ch === ';' || ch === '{') break;
      IDENT.lastIndex = i;
      const id = IDENT.exec(text);
      if (id) {
        i += id[0].length;
        const word = id[0];
        const next = text.slice(i).match(/^\s*/)?.[0].length ?? 0;
        if (text[i + next] === '(' && /^(__launch_bounds__|__attribute__|__declspec|alignas|__align__)$/.test(word)) {
          const end = matchBracket(text, i + next);
          if (end < 0) break;
          i = end;
          continue;
        }
        lastIdent = word;
        continue;
      }
      if (ch === '<') {
        const end = matchBracket(text, i);
        if (end < 0) break;
        i = end;
        continue;
      }
      if (ch === '(') {
        paramsOpen = i;
        break;
      }
      i++;
    }
    if (paramsOpen < 0 || lastIdent === undefined) continue;
    const paramsEnd = matchBracket(text, paramsOpen);
    if (paramsEnd < 0) continue;
    const bodyMatch = /^[^;{]*\{/.exec(text.slice(paramsEnd));
    if (!bodyMatch) continue; // a declaration, not a definition
    const bodyOpen = paramsEnd + bodyMatch[0].length - 1;
    const bodyEnd = matchBracket(text, bodyOpen);
    const startLine = lineOf(starts, m.index);
    const endLine = bodyEnd < 0 ? starts.length - 1 : lineOf(starts, bodyEnd - 1);
    kernels.push({ name: lastIdent, startLine, endLine });
    re.lastIndex = Math.max(re.lastIndex, paramsEnd);
  }
  return kernels;
}

const TRITON_JIT = /^\s*@\s*(?:triton\s*\.\s*)?jit\b/;

export function findTritonKernels(source: string): KernelSpan[] {
  const text = blankCommentsAndStrings(source, true);
  const lines = text.split('\n');
  // Bracket depth at the start of each line: continuation lines have depth > 0.
  const depth: number[] = [];
  let d = 0;
  for (const line of lines) {
    depth.push(d);
    for (const ch of line) {
      if (ch === '(' || ch === '[' || ch === '{') d++;
      else if (ch === ')' || ch === ']' || ch === '}') d = Math.max(0, d - 1);
    }
  }
  const indent = (l: string): number => l.length - l.trimStart().length;
  const kernels: KernelSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (depth[i] > 0 || !TRITON_JIT.test(lines[i])) continue;
    // The whole decorator stack belongs to the kernel.
    let start = i;
    for (let p = i - 1; p >= 0; p--) {
      if (depth[p] > 0 || lines[p].trimStart().startsWith('@')) start = p;
      else if (lines[p].trim().length === 0 && depth[p] > 0) start = p;
      else break;
    }
    // The `def` after the decorators.
    let defLine = -1;
    let name = '';
    for (let k = i + 1; k < lines.length; k++) {
      if (depth[k] > 0) continue;
      const t = lines[k].trim();
      if (t.length === 0 || t.startsWith('@')) continue;
      const dm = /^(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(t);
      if (dm) {
        defLine = k;
        name = dm[1];
      }
      break;
    }
    if (defLine < 0) continue;
    const defIndent = indent(lines[defLine]);
    let end = defLine;
    for (let k = defLine + 1; k < lines.length; k++) {
      if (lines[k].trim().length === 0) continue;
      if (depth[k] === 0 && indent(lines[k]) <= defIndent) break;
      end = k;
    }
    kernels.push({ name, startLine: start, endLine: end });
    i = end;
  }
  return kernels;
}

export function findKernels(languageId: string, text: string): KernelSpan[] {
  return languageId === 'python' ? findTritonKernels(text) : findCudaKernels(text);
}

/** The kernel whose definition contains `line` (0-based), if any. */
export function kernelAt(languageId: string, text: string, line: number): string | undefined {
  return findKernels(languageId, text).find((k) => k.startLine <= line && line <= k.endLine)?.name;
}
