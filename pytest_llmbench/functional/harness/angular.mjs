// Angular answers in the harness (openApp({ angular: true }) or openAngularApp): the app is
// compiled just in time in the page, as Angular's own test setups do. The bundle starts
// with a small Reflect metadata store (constructor injection reads the parameter types
// TypeScript records), zone.js and @angular/compiler, then the answer's src/main.ts. The
// answer's TypeScript is compiled by TypeScript itself (decorators and their metadata,
// which esbuild does not emit), after templateUrl became the template's text and
// styleUrl(s) were dropped (jsdom applies no styles).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ANGULAR_HTML = ['src/index.html', 'index.html'];
export const ANGULAR_ENTRY = ['src/main.ts'];

// The part of reflect-metadata Angular's JIT and TypeScript's __metadata helper use.
const REFLECT_METADATA = `
(function () {
  var R = globalThis.Reflect;
  if (typeof R.getOwnMetadata === 'function') return;
  var store = new WeakMap();
  function table(target, property, create) {
    var byTarget = store.get(target);
    if (!byTarget) { if (!create) return undefined; byTarget = new Map(); store.set(target, byTarget); }
    var byProperty = byTarget.get(property);
    if (!byProperty) { if (!create) return undefined; byProperty = new Map(); byTarget.set(property, byProperty); }
    return byProperty;
  }
  R.defineMetadata = function (key, value, target, property) { table(target, property, true).set(key, value); };
  R.hasOwnMetadata = function (key, target, property) { var t = table(target, property, false); return !!t && t.has(key); };
  R.getOwnMetadata = function (key, target, property) { var t = table(target, property, false); return t ? t.get(key) : undefined; };
  R.getMetadata = function (key, target, property) {
    for (var o = target; o; o = Object.getPrototypeOf(o)) { var t = table(o, property, false); if (t && t.has(key)) return t.get(key); }
    return undefined;
  };
  R.hasMetadata = function (key, target, property) { return R.getMetadata(key, target, property) !== undefined; };
  R.metadata = function (key, value) { return function (target, property) { R.defineMetadata(key, value, target, property); }; };
})();
`;

/** The bundle's entry: metadata store, zone.js, the JIT compiler, then the app. */
export function angularEntry(entry) {
  return [
    "import 'llmbench-angular:reflect';",
    "import 'zone.js';",
    "import '@angular/compiler';",
    `import ${JSON.stringify('./' + entry.replace(/^\.\//, ''))};`,
  ].join('\n');
}

const STRING = String.raw`(['"\x60])((?:(?!\1)[^\\\n]|\\.)*)\1`;
const TEMPLATE_URL = new RegExp(String.raw`\btemplateUrl\s*:\s*` + STRING, 'g');
const STYLE_URLS = /\bstyleUrls\s*:\s*\[[^\]]*\]/g;
const STYLE_URL = new RegExp(String.raw`\bstyleUrl\s*:\s*` + STRING, 'g');

/** A component's source with templateUrl replaced by its file's text, styles dropped;
 * each template file read is added to `reads`. */
export function inlineResources(text, folder, reads = []) {
  return text
    .replace(TEMPLATE_URL, (_, _quote, relative) => {
      const file = path.resolve(folder, relative);
      if (!existsSync(file)) throw new Error(`templateUrl '${relative}' names no file (${path.relative(process.cwd(), file)})`);
      reads.push(file);
      return `template: ${JSON.stringify(readFileSync(file, 'utf8'))}`;
    })
    .replace(STYLE_URLS, 'styles: []')
    .replace(STYLE_URL, 'styles: []');
}

// Signal-based members (input(), model(), output(), viewChild()...) are found by Angular's
// ahead-of-time compiler; just in time they need the decorators they stand for, which
// this TypeScript transform adds (as the Angular CLI's own JIT transform does).
const SIGNAL_APIS = new Set(['input', 'model', 'output', 'viewChild', 'viewChildren', 'contentChild', 'contentChildren']);

/** Local name -> @angular/core export name, for the signal APIs this file imports. */
function coreImports(ts, file) {
  const names = new Map();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || statement.moduleSpecifier.text !== '@angular/core') continue;
    const bindings = statement.importClause && statement.importClause.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const imported = (element.propertyName || element.name).text;
      if (SIGNAL_APIS.has(imported)) names.set(element.name.text, imported);
    }
  }
  return names;
}

/** The decorators (as expressions on the namespace `ng`) a signal member stands for. */
function decoratorsFor(ts, f, api, required, args, name) {
  const options = args.find((a, i) => ts.isObjectLiteralExpression(a) && (required || i > 0 || api === 'output'));
  const aliasProp = options && options.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'alias');
  const alias = aliasProp ? aliasProp.initializer : f.createStringLiteral(name);
  const ng = (member, ...callArgs) => f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier('__llmbenchNg'), member), undefined, callArgs);
  const inputOptions = () => f.createObjectLiteralExpression([
    f.createPropertyAssignment('isSignal', f.createTrue()), f.createPropertyAssignment('alias', alias),
    f.createPropertyAssignment('required', required ? f.createTrue() : f.createFalse()),
    f.createPropertyAssignment('transform', f.createIdentifier('undefined')),
  ]);
  if (api === 'input') return [ng('Input', inputOptions())];
  if (api === 'output') return [ng('Output', alias)];
  if (api === 'model') return [ng('Input', inputOptions()), ng('Output', f.createBinaryExpression(alias, ts.SyntaxKind.PlusToken, f.createStringLiteral('Change')))];
  const query = { viewChild: 'ViewChild', viewChildren: 'ViewChildren', contentChild: 'ContentChild', contentChildren: 'ContentChildren' }[api];
  const queryOptions = f.createObjectLiteralExpression([
    ...(args[1] ? [f.createSpreadAssignment(args[1])] : []), f.createPropertyAssignment('isSignal', f.createTrue()),
  ]);
  return [ng(query, args[0], queryOptions)];
}

/** Names this file uses as values: outside types, plus the parameter types of
 * constructors (dependency injection reads them) unless an @Inject names the token. */
function valueNames(ts, file) {
  const names = new Set();
  const visit = (node, inType) => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent)) {
      node.types.forEach((t) => visit(t.expression, false));
      return;
    }
    if (ts.isParameter(node) && ts.isConstructorDeclaration(node.parent) && node.type && ts.isTypeReferenceNode(node.type)) {
      const injected = (ts.getDecorators(node) || []).some((d) => /^Inject\b/.test(d.expression.getText()));
      let name = node.type.typeName;
      while (ts.isQualifiedName(name)) name = name.left;
      if (!injected) names.add(name.text);
    }
    const typed = inType || ts.isTypeNode(node);
    if (ts.isIdentifier(node) && !typed) names.add(node.text);
    ts.forEachChild(node, (child) => visit(child, typed));
  };
  visit(file, false);
  return names;
}

/** Named imports used only as types are dropped, as TypeScript would drop them, also where
 * a decorator's metadata names them (an interface has no export at run time). */
function dropTypeImports(ts, f, file) {
  const values = valueNames(ts, file);
  return file.statements.flatMap((statement) => {
    const clause = ts.isImportDeclaration(statement) && statement.importClause;
    if (clause && clause.isTypeOnly) return [];
    const bindings = clause && clause.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) return [statement];
    const kept = bindings.elements.filter((e) => !e.isTypeOnly && values.has(e.name.text));
    if (kept.length === bindings.elements.length) return [statement];
    if (!kept.length && !clause.name) return [];
    const named = kept.length ? f.updateNamedImports(bindings, kept) : undefined;
    const updated = f.updateImportClause(clause, false, clause.name, named);
    return [f.updateImportDeclaration(statement, statement.modifiers, updated, statement.moduleSpecifier, statement.attributes)];
  });
}

/** The TypeScript transform: a decorator on each class member initialised by a signal API. */
export function signalMembersTransform(ts) {
  return (context) => (original) => {
    const f = context.factory;
    const file = f.updateSourceFile(original, dropTypeImports(ts, f, original));
    const names = coreImports(ts, file);
    if (!names.size) return file;
    let changed = false;
    const visit = (node) => {
      if (ts.isPropertyDeclaration(node) && node.initializer && ts.isCallExpression(node.initializer) && ts.isIdentifier(node.name)) {
        let callee = node.initializer.expression;
        let required = false;
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'required') { callee = callee.expression; required = true; }
        const api = ts.isIdentifier(callee) ? names.get(callee.text) : undefined;
        if (api) {
          changed = true;
          const decorators = decoratorsFor(ts, f, api, required, [...node.initializer.arguments], node.name.text).map((e) => f.createDecorator(e));
          return f.updatePropertyDeclaration(node, [...decorators, ...(node.modifiers || [])], node.name, node.questionToken || node.exclamationToken, node.type, node.initializer);
        }
      }
      return ts.visitEachChild(node, visit, context);
    };
    const result = ts.visitNode(file, visit);
    if (!changed) return result;
    const namespace = f.createImportDeclaration(undefined,
      f.createImportClause(false, undefined, f.createNamespaceImport(f.createIdentifier('__llmbenchNg'))), f.createStringLiteral('@angular/core'));
    return f.updateSourceFile(result, [namespace, ...result.statements]);
  };
}

/** esbuild plugin: the workspace's .ts files through TypeScript, the metadata store module. */
export function angularPlugin(requireFrom, reads = []) {
  let ts = null;
  return {
    name: 'llmbench-angular',
    setup(build) {
      build.onResolve({ filter: /^llmbench-angular:reflect$/ }, (args) => ({ path: args.path, namespace: 'llmbench-angular' }));
      build.onLoad({ filter: /.*/, namespace: 'llmbench-angular' }, () => ({ contents: REFLECT_METADATA, loader: 'js' }));
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.split(path.sep).includes('node_modules') || args.path.endsWith('.d.ts')) return undefined;
        ts = ts || requireFrom('typescript');
        const folder = path.dirname(args.path);
        const source = inlineResources(readFileSync(args.path, 'utf8'), folder, reads);
        const output = ts.transpileModule(source, {
          fileName: args.path,
          compilerOptions: {
            target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
            experimentalDecorators: true, emitDecoratorMetadata: true,
            useDefineForClassFields: false, importHelpers: false, sourceMap: false,
          },
          transformers: { before: [signalMembersTransform(ts)] },
        });
        return { contents: output.outputText, loader: 'js', resolveDir: folder };
      });
    },
  };
}
