// Which documents the language server sees. CUDA documents always; Python
// documents only when their code (not a comment or a string) holds a kernel.
// Pure (no `vscode` import).

import { pythonCode } from './kernels';

export const CUDA_LANGUAGES = ['cuda-cpp', 'cuda'];
export const PYTHON_LANGUAGE = 'python';

export function isCuda(languageId: string, fileName = ''): boolean {
  return CUDA_LANGUAGES.includes(languageId) || /\.cuh?$/i.test(fileName);
}

/** `@triton.jit`, `@triton.autotune(...)`, `@triton.heuristics(...)` on a line of their own. */
const TRITON_DECORATOR = /^[ \t]*@[ \t]*triton[ \t]*\.[ \t]*(?:jit|autotune|heuristics)\b/m;
/** `@jit` / `@autotune` where `from triton import jit` brought the name in. */
const BARE_DECORATOR = /^[ \t]*@[ \t]*(jit|autotune|heuristics)\b/m;
const FROM_TRITON = /^[ \t]*from[ \t]+triton(?:\.language)?[ \t]+import[ \t]+\(?([^)\n]*)/gm;
/** `load_inline(`, `cpp_extension.load_inline(`: CUDA source compiled from Python (PyTorch). */
const LOAD_INLINE = /\bload_inline[ \t]*\(/;
/** `cupy.RawKernel(`, `cp.RawModule(`, or `RawKernel(` imported from cupy. */
const CUPY_RAW = /\b(?:cupy|cp)[ \t]*\.[ \t]*Raw(?:Kernel|Module)[ \t]*\(/;
const BARE_RAW = /(?<![.\w])Raw(?:Kernel|Module)[ \t]*\(/;
const FROM_CUPY_RAW = /^[ \t]*from[ \t]+cupy[ \t]+import[^\n]*\bRaw(?:Kernel|Module)\b/m;

/**
 * Whether a Python file holds GPU kernels: a Triton kernel (`@triton.jit`, or `@jit`
 * imported from triton), CUDA source given to `load_inline`, or a CuPy `RawKernel` /
 * `RawModule`. Read from the code alone: comments and string contents are blanked
 * first, so a comment or docstring that says "triton" does not count.
 */
export function holdsKernels(text: string): boolean {
  const code = pythonCode(text);
  if (TRITON_DECORATOR.test(code) || LOAD_INLINE.test(code) || CUPY_RAW.test(code)) return true;
  const bare = BARE_DECORATOR.exec(code);
  if (bare) {
    for (const m of code.matchAll(FROM_TRITON)) {
      if (m[1].split(/[\s,]+/).includes(bare[1])) return true;
    }
  }
  return BARE_RAW.test(code) && FROM_CUPY_RAW.test(code);
}

export function inScope(languageId: string, text: string, fileName = ''): boolean {
  if (isCuda(languageId, fileName)) return true;
  return languageId === PYTHON_LANGUAGE && holdsKernels(text);
}

export type OpenDecision = 'forward' | 'withhold';
export type ChangeDecision = 'forward' | 'open' | 'drop';

/**
 * Tracks which Python documents the server has been told about. CUDA documents
 * always pass; a Python document is opened on the server only once it holds a
 * kernel (`holdsKernels`), and from then on stays open there until it is closed.
 */
export class DocumentGate {
  private readonly opened = new Set<string>();

  onOpen(uri: string, languageId: string, text: string): OpenDecision {
    if (languageId !== PYTHON_LANGUAGE) return 'forward';
    if (!holdsKernels(text)) return 'withhold';
    this.opened.add(uri);
    return 'forward';
  }

  /** On a change: forward it, open the document now (it just got its first kernel), or drop it. */
  onChange(uri: string, languageId: string, text: () => string): ChangeDecision {
    if (languageId !== PYTHON_LANGUAGE || this.opened.has(uri)) return 'forward';
    if (!holdsKernels(text())) return 'drop';
    this.opened.add(uri);
    return 'open';
  }

  onClose(uri: string, languageId: string): boolean {
    if (languageId !== PYTHON_LANGUAGE) return true;
    return this.opened.delete(uri);
  }

  /** Whether requests (hints, lenses, hover) for this document should go to the server. */
  isOnServer(uri: string, languageId: string): boolean {
    return languageId !== PYTHON_LANGUAGE || this.opened.has(uri);
  }

  clear(): void {
    this.opened.clear();
  }
}
