import * as assert from 'assert';
import { DocumentGate, inScope } from '../documents';

describe('document scope', () => {
  it('takes CUDA always and Python only with Triton', () => {
    assert.ok(inScope('cuda-cpp', ''));
    assert.ok(inScope('cuda', ''));
    assert.ok(inScope('plaintext', '', '/x/kernels.cuh'));
    assert.ok(inScope('python', 'import triton\n'));
    assert.ok(!inScope('python', 'import torch\n'));
    assert.ok(!inScope('rust', 'triton'));
  });

  it('opens a Python document on the server once it mentions Triton', () => {
    const gate = new DocumentGate();
    assert.strictEqual(gate.onOpen('file:///a.py', 'python', 'import numpy'), 'withhold');
    assert.ok(!gate.isOnServer('file:///a.py', 'python'));
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import numpy\n'), 'drop');
    assert.strictEqual(gate.onChange('file:///a.py', 'python', () => 'import triton\n'), 'open');
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
