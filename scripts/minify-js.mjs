#!/usr/bin/env node
// Release builds: minifies the JavaScript a learner downloads that trunk
// leaves as it is. Trunk's own minifier cannot parse wasm-bindgen's module
// glue (tellers-app-*.js, tellers-teacher.js) and keeps it whole; terser
// can. offline.js (ours, a classic script) is minified too. sw.js is
// stamped with the build's files after this (scripts/service-worker.mjs)
// and then only loses its comments and spaces (minifyWorker): its
// `const VERSION`/`const FILES` lines stay as they are, for a test deploys
// a new version by editing VERSION. index.html pins each script it loads by
// an `integrity` hash, so a minified file's hash is written anew.
//
//   node scripts/minify-js.mjs BUILD_DIR     (scripts/post-build.mjs calls it)

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { minify } from 'terser';

/** The files of a build this step minifies, and whether each is an ES module. */
export function scriptsToMinify(files) {
  return files
    .filter((f) => /^tellers-[\w-]*\.js$/.test(f) || f === 'offline.js')
    .map((f) => ({ file: f, module: f !== 'offline.js' }));
}

/**
 * `integrity` values in `html` for `file` replaced by the hash of `content`.
 * Throws when `html` names the file with an integrity hash this could not
 * find to rewrite: a stale hash would stop every page loading.
 */
export function withIntegrity(html, file, content) {
  const sri = `sha384-${crypto.createHash('sha384').update(content).digest('base64')}`;
  // Trunk's minified index.html writes attributes without quotes, in any
  // order; the href may carry the public URL's folder.
  const name = file.replace(/[.]/g, '\\.');
  const tag = new RegExp(`<[^>]*\\bhref="?[^"\\s>]*/${name}"?[^>]*>`, 'g');
  let rewritten = 0;
  const out = html.replace(tag, (t) =>
    t.replace(/\bintegrity="?sha384-[A-Za-z0-9+/=]+"?/, () => {
      rewritten += 1;
      return `integrity=${sri}`;
    }),
  );
  const pinned = (html.match(new RegExp(`<[^>]*${name}[^>]*>`, 'g')) ?? []).some((t) => t.includes('integrity='));
  if (pinned && rewritten === 0) throw new Error(`minify-js: index.html pins ${file} by a hash this could not rewrite`);
  return out;
}

/** Minifies the build in `dir` in place; returns [file, bytes before, bytes after] for each. */
export async function minifyScripts(dir) {
  const files = fs.readdirSync(dir);
  const indexPath = path.join(dir, 'index.html');
  let html = fs.readFileSync(indexPath, 'utf8');
  const done = [];
  for (const { file, module } of scriptsToMinify(files)) {
    const full = path.join(dir, file);
    const source = fs.readFileSync(full, 'utf8');
    const out = await minify(source, { module, compress: true, mangle: true, format: { comments: false } });
    if (!out.code) throw new Error(`minify-js: terser gave nothing for ${file}`);
    fs.writeFileSync(full, out.code);
    html = withIntegrity(html, file, out.code);
    done.push([file, source.length, out.code.length]);
  }
  fs.writeFileSync(indexPath, html);
  return done;
}

/** sw.js in `dir` without comments or spaces, its code as it was; returns [bytes before, after]. */
export async function minifyWorker(dir) {
  const full = path.join(dir, 'sw.js');
  const source = fs.readFileSync(full, 'utf8');
  const out = await minify(source, { compress: false, mangle: false, format: { comments: false } });
  if (!out.code || !/const VERSION=/.test(out.code)) throw new Error('minify-js: sw.js lost its VERSION line');
  fs.writeFileSync(full, out.code);
  return [source.length, out.code.length];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('minify-js: give the build folder');
    process.exit(2);
  }
  for (const [f, a, b] of await minifyScripts(dir)) console.log(`minify-js: ${f} ${a} -> ${b} bytes`);
}
