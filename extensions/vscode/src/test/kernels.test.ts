import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { findCudaKernels, findTritonKernels, kernelAt } from '../kernels';

const workspaces = path.resolve(__dirname, '..', '..', '..', '..', 'test-workspaces');
const read = (rel: string): string => fs.readFileSync(path.join(workspaces, rel), 'utf8');
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length - 1;

describe('kernel finder: CUDA', () => {
  it('finds a kernel whose name follows __launch_bounds__ on the next line', () => {
    const text = read('cuda/src/transpose.cu');
    const kernels = findCudaKernels(text);
    assert.deepStrictEqual(kernels.map((k) => k.name), ['transpose']);
    assert.strictEqual(kernelAt('cuda', text, lineOf(text, '__syncthreads')), 'transpose');
    assert.strictEqual(kernelAt('cuda', text, lineOf(text, 'transpose(const float*')), 'transpose');
    // The host wrapper is not a kernel.
    assert.strictEqual(kernelAt('cuda', text, lineOf(text, 'dim3 block')), undefined);
  });

  it('finds every kernel of the fixture library', () => {
    const names = ['elementwise', 'reduction', 'matmul', 'softmax', 'transpose'].flatMap((f) =>
      findCudaKernels(read(`cuda/src/${f}.cu`)).map((k) => k.name),
    );
    for (const k of ['saxpy', 'scale', 'relu', 'reduce_sum', 'sgemm', 'softmax_rows', 'transpose']) {
      assert.ok(names.includes(k), `missing ${k} in ${names.join(', ')}`);
    }
  });

  it('ignores declarations, comments and strings', () => {
    const text = [
      '// __global__ void commented(int x) {}',
      'const char* s = "__global__ void quoted() {}";',
      '__global__ void declared(float* x);',
      'template <int N>',
      '__global__ void __launch_bounds__(256, 2) templated(float* __restrict__ x, int n)',
      '{',
      '    if (n) { x[0] = N; }',
      '}',
      'static __global__ void other(void) { }',
    ].join('\n');
    const kernels = findCudaKernels(text);
    assert.deepStrictEqual(kernels, [
      { name: 'templated', startLine: 4, endLine: 7 },
      { name: 'other', startLine: 8, endLine: 8 },
    ]);
  });
});

describe('kernel finder: Triton', () => {
  it('finds @triton.jit kernels and their bodies', () => {
    const text = read('triton/kernels/softmax.py');
    assert.deepStrictEqual(findTritonKernels(text).map((k) => k.name), ['softmax_kernel']);
    assert.strictEqual(kernelAt('python', text, lineOf(text, 'tl.store')), 'softmax_kernel');
    assert.strictEqual(kernelAt('python', text, lineOf(text, '@triton.jit')), 'softmax_kernel');
    assert.strictEqual(kernelAt('python', text, lineOf(text, 'def softmax(')), undefined);
  });

  it('includes a multi-line autotune decorator in the kernel', () => {
    const text = read('triton/kernels/matmul.py');
    const kernels = findTritonKernels(text);
    assert.deepStrictEqual(kernels.map((k) => k.name), ['matmul_kernel']);
    if (text.includes('@triton.autotune')) {
      assert.strictEqual(kernels[0].startLine, lineOf(text, '@triton.autotune'));
      assert.strictEqual(kernelAt('python', text, lineOf(text, 'triton.Config') + 1), 'matmul_kernel');
    }
  });

  it('handles @jit, docstrings with "def" and nested blocks', () => {
    const text = [
      'from triton import jit',
      '',
      '@jit',
      'def k(x_ptr,',
      '      n):',
      '    """def not_a_kernel():"""',
      '    if n:',
      '',
      '        pass',
      '    return',
      'def host():',
      '    pass',
    ].join('\n');
    assert.deepStrictEqual(findTritonKernels(text), [{ name: 'k', startLine: 2, endLine: 9 }]);
  });
});
