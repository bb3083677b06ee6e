#!/usr/bin/env node
// Builds a platform-specific .vsix with the kforecast server inside, as rust-analyzer
// publishes its extension: the client bundled by esbuild into dist/extension.js, the
// server binary for the target copied into server/, then `vsce package --target`.
//
//   node scripts/package.js [--target linux-x64] [--server PATH] [--out FILE]
//
// --target  a VS Code platform (default: this machine's): linux-x64, linux-arm64,
//           alpine-x64, darwin-x64, darwin-arm64, win32-x64, win32-arm64.
// --server  the kforecast binary to bundle. Default: $CARGO_TARGET_DIR (else the
//           repository's target/) /<rust triple>/release/kforecast, and for this
//           machine's platform also target/release then target/debug. Build one
//           for another platform with `cargo build --release -p kforecast --target <triple>`.
// --out     the .vsix to write (default: kforecast-<version>-<target>.vsix here).
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

/** VS Code platform → the Rust target triple whose binary runs there. */
const TRIPLES = {
  'linux-x64': 'x86_64-unknown-linux-gnu',
  'linux-arm64': 'aarch64-unknown-linux-gnu',
  'alpine-x64': 'x86_64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
};

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!['--target', '--server', '--out'].includes(flag)) fail(`unknown argument ${JSON.stringify(flag)} (use --target, --server, --out)`);
    const value = argv[++i];
    if (value === undefined) fail(`${flag} needs a value`);
    args[flag.slice(2)] = value;
  }
  return args;
}

const ext = path.resolve(__dirname, '..');
const repo = path.resolve(ext, '..', '..');
const args = parseArgs(process.argv.slice(2));
const host = `${process.platform}-${process.arch}`;
const target = args.target ?? host;
const triple = TRIPLES[target];
if (!triple) fail(`unknown target ${JSON.stringify(target)}; one of ${Object.keys(TRIPLES).join(', ')}`);
const exe = target.startsWith('win32') ? 'kforecast.exe' : 'kforecast';

const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(repo, 'target');
const candidates = args.server
  ? [path.resolve(args.server)]
  : [
      path.join(targetDir, triple, 'release', exe),
      ...(target === host ? [path.join(targetDir, 'release', exe), path.join(targetDir, 'debug', exe)] : []),
    ];
const binary = candidates.find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
if (!binary) {
  fail(`no kforecast binary for ${target} at ${candidates.join(' or ')}; build it with \`cargo build --release -p kforecast${target === host ? '' : ` --target ${triple}`}\` or pass --server`);
}

// Only the binary for this target goes in.
const serverDir = path.join(ext, 'server');
for (const name of ['kforecast', 'kforecast.exe']) fs.rmSync(path.join(serverDir, name), { force: true });
fs.mkdirSync(serverDir, { recursive: true });
fs.copyFileSync(binary, path.join(serverDir, exe));
fs.chmodSync(path.join(serverDir, exe), 0o755);
console.log(`package: bundled ${binary} as server/${exe} (${(fs.statSync(binary).size / 1048576).toFixed(1)} MiB)`);

const version = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8')).version;
const out = path.resolve(args.out ?? path.join(ext, `kforecast-${version}-${target}.vsix`));
const bin = (name) => path.join(ext, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
try {
  // vscode:prepublish bundles the client (npm run bundle); its dependencies are in the bundle.
  execFileSync(bin('vsce'), ['package', '--target', target, '--no-dependencies', '--out', out], { cwd: ext, stdio: 'inherit' });
} finally {
  fs.rmSync(path.join(serverDir, exe), { force: true });
}
console.log(`package: wrote ${out}`);
