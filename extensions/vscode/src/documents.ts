// Which documents the language server sees. CUDA documents always; Python
// documents only when their text mentions Triton. Pure (no `vscode` import).

export const CUDA_LANGUAGES = ['cuda-cpp', 'cuda'];
export const PYTHON_LANGUAGE = 'python';

export function isCuda(languageId: string, fileName = ''): boolean {
  return CUDA_LANGUAGES.includes(languageId) || /\.cuh?$/i.test(fileName);
}

/** A Python file is of interest when its text contains `triton` (e.g. `import triton`, `@triton.jit`). */
export function mentionsTriton(text: string): boolean {
  return text.includes('triton');
}

export function inScope(languageId: string, text: string, fileName = ''): boolean {
  if (isCuda(languageId, fileName)) return true;
  return languageId === PYTHON_LANGUAGE && mentionsTriton(text);
}

export type OpenDecision = 'forward' | 'withhold';
export type ChangeDecision = 'forward' | 'open' | 'drop';

/**
 * Tracks which Python documents the server has been told about. CUDA documents
 * always pass; a Python document is opened on the server only once its text
 * mentions Triton, and from then on stays open there until it is closed.
 */
export class DocumentGate {
  private readonly opened = new Set<string>();

  onOpen(uri: string, languageId: string, text: string): OpenDecision {
    if (languageId !== PYTHON_LANGUAGE) return 'forward';
    if (!mentionsTriton(text)) return 'withhold';
    this.opened.add(uri);
    return 'forward';
  }

  /** On a change: forward it, open the document now (it just started to mention Triton), or drop it. */
  onChange(uri: string, languageId: string, text: () => string): ChangeDecision {
    if (languageId !== PYTHON_LANGUAGE || this.opened.has(uri)) return 'forward';
    if (!mentionsTriton(text())) return 'drop';
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
