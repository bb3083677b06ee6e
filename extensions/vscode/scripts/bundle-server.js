#!/usr/bin/env node
// Copies a kforecast binary into server/ so that `vsce package` bundles it.
// Usage: npm run bundle-server [-- /path/to/kforecast]
// Default: the repository's target/release/kforecast, else target/debug/kforecast.
'use strict';
const fs = require('fs');
const path = require('path');

const exe = process.platform === 'win32' ? 'kforecast.exe' : 'kforecast';
const repo = path.resolve(__dirname, '..', '..', '..');
const candidates = process.argv[2]
  ? [path.resolve(process.argv[2])]
  : [path.join(repo, 'target', 'release', exe), path.join(repo, 'target', 'debug', exe)];
const source = candidates.find((p) => fs.existsSync(p));
if (!source) {
  console.error(`bundle-server: no kforecast binary at ${candidates.join(' or ')}; run \`cargo build --release -p kforecast\` first`);
  process.exit(1);
}
const dest = path.join(__dirname, '..', 'server', exe);
fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.copyFileSync(source, dest);
fs.chmodSync(dest, 0o755);
console.log(`bundle-server: copied ${source} -> ${dest}`);
