// How the harness builds an app: esbuild bundles the answer's entry (or an entry a test
// writes) with the shims below into one browser script. harness.mjs builds with it in the
// test process; prebuild.mjs, before a run, makes the bundles the run will ask for
// (node_bundles.py caches them by content). Building reads the answer's files and never
// runs them.
//
// Environment (set by the runner): LLMBENCH_WORKSPACE (the answer's files applied to the
// dataset), LLMBENCH_NODE_MODULES (the checkers' node_modules).
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { angularEntry, angularPlugin } from './angular.mjs';

export const workspace = process.env.LLMBENCH_WORKSPACE || process.cwd();
export const modules = process.env.LLMBENCH_NODE_MODULES || path.join(process.cwd(), 'node_modules');
export const requireFrom = createRequire(path.join(modules, 'noop.js'));
const esbuild = requireFrom('esbuild');

// react-dom's entry points, wrapped so the page records which mount API the app used.
const MOUNT_SHIM = `
import * as real from 'llmbench-real:react-dom/client';
export * from 'llmbench-real:react-dom/client';
export function createRoot(...args) { (window.__llmbench.mounts.createRoot += 1); const root = real.createRoot(...args); window.__llmbench.roots.push(root); return root; }
export function hydrateRoot(...args) { (window.__llmbench.mounts.hydrateRoot += 1); const root = real.hydrateRoot(...args); window.__llmbench.roots.push(root); return root; }
export default { ...real, createRoot, hydrateRoot };
`;
const LEGACY_SHIM = `
import * as real from 'llmbench-real:react-dom';
export * from 'llmbench-real:react-dom';
export function render(...args) { (window.__llmbench.mounts.render += 1); window.__llmbench.legacy.push(args[1]); window.__llmbench.legacyApi = real; return real.render(...args); }
export default { ...real, render };
`;

// prop-types only checks props in development; when the checkers' node_modules has no
// copy, an app that still imports it builds against this stand-in (checks nothing).
const PROP_TYPES_SHIM = `
function check() { return null; }
check.isRequired = check;
const of = () => check;
const PropTypes = {
  any: check, array: check, bigint: check, bool: check, func: check, number: check, object: check,
  string: check, symbol: check, node: check, element: check, elementType: check,
  instanceOf: of, oneOf: of, oneOfType: of, arrayOf: of, objectOf: of, shape: of, exact: of,
  checkPropTypes() {}, resetWarningCache() {},
};
PropTypes.PropTypes = PropTypes;
export default PropTypes;
`;

function resolvable(name) {
  try { requireFrom.resolve(name); return true; } catch { return false; }
}

function plugin() {
  return {
    name: 'llmbench',
    setup(build) {
      if (!resolvable('prop-types')) {
        build.onResolve({ filter: /^prop-types$/ }, (args) => ({ path: args.path, namespace: 'llmbench-prop-types' }));
        build.onLoad({ filter: /.*/, namespace: 'llmbench-prop-types' }, () => ({ contents: PROP_TYPES_SHIM, loader: 'js' }));
      }
      build.onResolve({ filter: /^react-dom(\/client)?$/ }, (args) => ({
        path: args.path, namespace: 'llmbench-shim',
      }));
      build.onLoad({ filter: /.*/, namespace: 'llmbench-shim' }, (args) => ({
        contents: args.path === 'react-dom' ? LEGACY_SHIM : MOUNT_SHIM,
        resolveDir: workspace,
        loader: 'js',
      }));
      build.onResolve({ filter: /^llmbench-real:/ }, (args) => ({
        path: requireFrom.resolve(args.path.slice('llmbench-real:'.length)),
      }));
      // Images and fonts become empty strings; styles are not applied (jsdom has no layout).
      build.onResolve({ filter: /\.(css|scss|sass|less|svg|png|jpe?g|gif|webp|woff2?|ttf)$/ }, (args) => ({
        path: args.path, namespace: 'llmbench-asset',
      }));
      build.onLoad({ filter: /.*/, namespace: 'llmbench-asset' }, () => ({ contents: 'export default ""', loader: 'js' }));
    },
  };
}


/** A build request as one string: its key (bundleKey) hashes exactly these characters,
 * here and in node_bundles.py. */
export function bundleSpec({ entry = null, source = null, loader = 'tsx', angular = false }) {
  return JSON.stringify([entry, source, loader, angular]);
}

/** The request a spec stands for, or null when it is not one. */
export function requestOf(spec) {
  let parts;
  try { parts = JSON.parse(spec); } catch { return null; }
  if (!Array.isArray(parts) || parts.length !== 4) return null;
  const [entry, source, loader, angular] = parts;
  const text = (value) => value === null || typeof value === 'string';
  if (!text(entry) || !text(source) || (entry === null) === (source === null)) return null;
  if (typeof loader !== 'string' || typeof angular !== 'boolean') return null;
  return { entry, source, loader, angular };
}

/** The file name (without .js) a spec's bundle is cached under. */
export function bundleKey(spec) {
  return createHash('sha256').update(spec, 'utf8').digest('hex');
}

/** Bundle `entry` (a workspace path) or `source` (code resolved from the workspace) into
 * one browser script; throws an Error listing esbuild's messages when it does not build.
 * `angular`: an Angular app compiled just in time (angular.mjs). The files the build read
 * (absolute paths; virtual modules left out) are added to `reads`. */
export async function build({ entry = null, source = null, loader = 'tsx', angular = false }, reads = []) {
  if (angular && !existsSync(path.join(modules, '@angular', 'core', 'package.json'))) {
    throw new Error(`the Angular packages are missing from ${modules}: run scripts/install-test-tools in the project`);
  }
  const options = {
    // Angular: async/await lowered so that zone.js sees every continuation
    bundle: true, write: false, format: 'iife', platform: 'browser', target: angular ? 'es2016' : 'es2020',
    jsx: 'automatic', logLevel: 'silent', nodePaths: [modules], absWorkingDir: workspace, metafile: true,
    loader: { '.js': 'jsx', '.ts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' },
    define: {
      'process.env.NODE_ENV': '"development"', 'import.meta.env.DEV': 'true',
      'import.meta.env.PROD': 'false', 'import.meta.env.MODE': '"development"',
      'import.meta.env.BASE_URL': '"/"', 'import.meta.env': '{"DEV":true,"PROD":false,"MODE":"development","BASE_URL":"/"}',
    },
    plugins: angular ? [plugin(), angularPlugin(requireFrom, reads)] : [plugin()],
  };
  if (source !== null) options.stdin = { contents: source, resolveDir: workspace, loader, sourcefile: 'llmbench-entry.tsx' };
  else if (angular) options.stdin = { contents: angularEntry(entry), resolveDir: workspace, loader: 'js', sourcefile: 'llmbench-angular-entry.js' };
  else options.entryPoints = [path.join(workspace, entry)];
  try {
    const result = await esbuild.build(options);
    for (const input of Object.keys(result.metafile.inputs)) {
      // a virtual module is `namespace:path`; a file is its path from absWorkingDir
      if (!/^[\w-]+:/.test(input) && input !== '<stdin>') reads.push(path.resolve(workspace, input));
    }
    return result.outputFiles[0].text;
  } catch (error) {
    const messages = (error.errors || []).slice(0, 5).map((m) => `${m.location ? m.location.file + ':' + m.location.line + ': ' : ''}${m.text}`);
    throw new Error(`the app does not build: ${messages.join('; ') || error.message}`);
  }
}
