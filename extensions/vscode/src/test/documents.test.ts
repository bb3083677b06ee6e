import * as assert from 'assert';
import { DocumentGate, holdsKernels, inScope } from '../documents';

describe('document scope', () => {
  it('takes CUDA always and Python only with a kernel', () => {
    assert.ok(inScope('cuda-cpp', ''));
    assert.ok(inScope('cuda', ''));
    assert.ok(inScope('plaintext', '', '/x/kernels.cuh'));
    assert.ok(inScope('python', 'import triton\n\n@triton.jit\ndef k(x_ptr):\n    pass\n'));
    assert.ok(!inScope('python', 'import torch\n'));
    assert.ok(!inScope('rust', '@triton.jit'));
  });

  it('finds kernels in Python code, not in comments or strings', () => {
    const yes = [
      '@triton.jit\ndef add(x_ptr, n):\n    pass\n',
      '@triton.autotune(configs=[], key=["n"])\n@triton.jit\ndef add(x_ptr, n):\n    pass\n',
      'from triton import jit\n\n@jit\ndef add(x_ptr):\n    pass\n',
      'from torch.utils.cpp_extension import load_inline\nmod = load_inline(name="m", cpp_sources=cpp, cuda_sources=src)\n',
      'import torch.utils.cpp_extension as ext\nmod = ext.load_inline("m", cpp, cuda_sources=src)\n',
      'import cupy as cp\nk = cp.RawKernel(r"""extern "C" __global__ void f() {}""", "f")\n',
      'import cupy\nm = cupy.RawModule(code=src)\n',
      'from cupy import RawKernel\nk = RawKernel(src, "f")\n',
    ];
    for (const text of yes) assert.ok(holdsKernels(text), text);
    const no = [
      '# this was a triton kernel once: @triton.jit\nimport torch\n',
      'import triton  # only the runtime\nprint(triton.__version__)\n',
      '"""Uses @triton.jit kernels elsewhere; load_inline( too."""\n',
      'x = "cp.RawKernel(src)"\n',
      '@jit\ndef f(x):\n    return x\n', // numba's jit, say: not imported from triton
      'def RawKernel(x):\n    pass\ny = RawKernel(1)\n',
    ];
    for (const text of no) assert.ok(!holdsKernels(text), text);
  });

  it('opens a Python document on the server once it holds a kernel', () => {
    const gate = new DocumentGate();
    assert.strictEqual(gate.onOpen('file:///a.py', 'python', 'import numpy'), 'withhold');
    assert.ok(!gate.isOnServer('file:///a.py', 'python'));
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import numpy\n'), 'drop');
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import triton  # soon\n'), 'drop');
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import triton\n@triton.jit\ndef k(x):\n    pass\n'), 'open');
    assert.ok(gate.isOnServer('file:///a.py', 'python'));
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import numpy\n'), 'forward');
    assert.strictEqual(gate.onClose('file:///a.py', 'python'), true);
    assert.strictEqual(gate.onClose('file:///b.py', 'python'), false);
  });

  it('passes CUDA documents straight through', () => {
    const gate = new DocumentGate();
    assert.strictEqual(gate.onOpen('file:///a.cu', 'cuda-cpp', ''), 'forward');
    assert.strictEqual(gate.onChange('file:///a.cu', 'cuda-cpp', () => ''), 'forward');
    assert.ok(gate.isOnServer('file:///a.cu', 'cuda-cpp'));
    assert.strictEqual(gate.onClose('file:///a.cu', 'cuda-cpp'), true);
  });
});
