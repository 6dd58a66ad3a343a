#!/usr/bin/env node
// Trunk's post-build hook (Trunk.toml). Hooks of one stage run at the same
// time, so the steps that must follow each other are one hook: first the
// release build's JavaScript is minified (scripts/minify-js.mjs; a debug
// build, `trunk serve`, keeps it readable), then the service worker is
// stamped with the build's files and a version made from their contents
// (scripts/service-worker.mjs), which must see the files as they ship;
// last the worker itself loses its comments and spaces.

import { minifyScripts, minifyWorker } from './minify-js.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('post-build: run by trunk, which sets TRUNK_STAGING_DIR');
  process.exit(2);
}
if (process.env.TRUNK_PROFILE === 'release') {
  for (const [f, a, b] of await minifyScripts(dir)) console.log(`minify-js: ${f} ${a} -> ${b} bytes`);
}
await import('./service-worker.mjs');
if (process.env.TRUNK_PROFILE === 'release') {
  const [a, b] = await minifyWorker(dir);
  console.log(`minify-js: sw.js ${a} -> ${b} bytes`);
}
