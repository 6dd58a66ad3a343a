#!/usr/bin/env node
// Trunk post-build hook (Trunk.toml): writes into the service worker that
// trunk copied into the build (sw.js) the list of the build's files and a
// version made from their contents, so the worker caches exactly this build
// and every new build is a new worker (which the app offers as "a new
// version"). Runs after the course file is written (a build-stage hook).
//
//   node scripts/service-worker.mjs [BUILD_DIR]   (default: $TRUNK_STAGING_DIR)

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('service-worker: no build folder: give one, or run it from trunk (TRUNK_STAGING_DIR)');
  process.exit(2);
}
const worker = path.join(dir, 'sw.js');
if (!fs.existsSync(worker)) {
  console.error(`service-worker: ${worker} is missing; index.html should copy assets/sw.js into the build`);
  process.exit(1);
}

const files = fs
  .readdirSync(dir)
  .filter((f) => f !== 'sw.js' && !f.startsWith('.') && fs.statSync(path.join(dir, f)).isFile())
  .sort();
if (!files.includes('index.html') || !files.some((f) => /^course-[0-9a-f]{16}\.json$/.test(f))) {
  console.error(`service-worker: the build in ${dir} has no index.html or no course file: ${files.join(', ')}`);
  process.exit(1);
}
const hash = crypto.createHash('sha256');
for (const f of files) {
  hash.update(f).update('\0').update(fs.readFileSync(path.join(dir, f))).update('\0');
}
const version = hash.digest('hex').slice(0, 16);
// index.html is fetched as the folder itself ('./'), as a browser asks for it.
const list = ['./', ...files.filter((f) => f !== 'index.html')];

const source = fs.readFileSync(worker, 'utf8');
const stamped = source
  .replace(/^const VERSION = .*;$/m, `const VERSION = '${version}';`)
  .replace(/^const FILES = .*;$/m, `const FILES = ${JSON.stringify(list)};`);
if (stamped === source || !stamped.includes(version)) {
  console.error('service-worker: sw.js has no `const VERSION = …;` and `const FILES = …;` lines to fill in');
  process.exit(1);
}
fs.writeFileSync(worker, stamped);
console.log(`service-worker: ${list.length} files, version ${version}`);
