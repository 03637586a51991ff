// Candidate mutants of JavaScript/TypeScript files, found on TypeScript's syntax tree (so
// nothing inside strings, comments or types is touched) and each checked to still parse
// with esbuild. Used by mutator.py (scripts/make-mutants), never on model output.
//
//   node mutator.mjs MODULES_DIR FILE_LIST.json  ->  JSON list on stdout
//
// FILE_LIST.json: [{"path": "/abs/file.ts", "rel": "src/file.ts"}, ...]. Each candidate:
// {file, kind, line, start, end, replace, description}: the source text [start, end)
// becomes `replace`; line (1-based) is where it starts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [modules, listFile] = process.argv.slice(2);
const require = createRequire(path.join(modules, 'noop.js'));
const ts = require('typescript');
const esbuild = require('esbuild');
const K = ts.SyntaxKind;

const FLIPS = new Map([
  [K.EqualsEqualsEqualsToken, ['!==', 'eq']],
  [K.ExclamationEqualsEqualsToken, ['===', 'eq']],
  [K.EqualsEqualsToken, ['!=', 'eq']],
  [K.ExclamationEqualsToken, ['==', 'eq']],
  [K.LessThanToken, ['<=', 'boundary']],
  [K.LessThanEqualsToken, ['<', 'boundary']],
  [K.GreaterThanToken, ['>=', 'boundary']],
  [K.GreaterThanEqualsToken, ['>', 'boundary']],
  [K.AmpersandAmpersandToken, ['||', 'logic']],
  [K.BarBarToken, ['&&', 'logic']],
]);
const ARITH = new Map([[K.PlusToken, '-'], [K.MinusToken, '+']]);
const BLOCKS = new Set([K.Block, K.SourceFile, K.CaseClause, K.DefaultClause, K.ModuleBlock]);

function inType(node) {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isTypeNode(at) || ts.isTypeAliasDeclaration(at) || ts.isInterfaceDeclaration(at)) return true;
  }
  return false;
}

function isNumber(node) {
  return ts.isNumericLiteral(node) || (ts.isPrefixUnaryExpression(node) && ts.isNumericLiteral(node.operand));
}

function loaderOf(file) {
  const ext = path.extname(file).slice(1);
  return { mjs: 'js', cjs: 'js', mts: 'ts', cts: 'ts', js: 'jsx' }[ext] ?? ext;
}

function candidates(text, rel) {
  const kind = /\.[jt]sx$|\.js$/.test(rel) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const add = (node, kindName, start, end, replace, description) => {
    const line = source.getLineAndCharacterOfPosition(start).line + 1;
    found.push({ file: rel, kind: kindName, line, start, end, replace, description });
  };
  const visit = (node) => {
    if (inType(node)) return;
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      const flip = FLIPS.get(op.kind);
      if (flip) add(node, flip[1], op.getStart(), op.end, flip[0], `${op.getText()} becomes ${flip[0]}`);
      const arith = ARITH.get(op.kind);
      if (arith && (isNumber(node.right) || isNumber(node.left))) {
        add(node, 'arith', op.getStart(), op.end, arith, `${op.getText()} becomes ${arith} (off by one)`);
      }
    } else if (node.kind === K.TrueKeyword || node.kind === K.FalseKeyword) {
      const to = node.kind === K.TrueKeyword ? 'false' : 'true';
      add(node, 'bool', node.getStart(), node.end, to, `${node.getText()} becomes ${to}`);
    } else if (ts.isIfStatement(node)) {
      const cond = node.expression;
      add(node, 'negate', cond.getStart(), cond.end, `!(${cond.getText()})`, 'the if condition is negated');
    } else if (ts.isExpressionStatement(node) && BLOCKS.has(node.parent.kind)) {
      let call = node.expression;
      if (ts.isAwaitExpression(call)) call = call.expression;
      if (ts.isCallExpression(call)) {
        const callee = call.expression.getText().split('\n')[0];
        add(node, 'remove-call', node.getStart(), node.end, '', `the call of ${callee} is removed`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const loader = loaderOf(rel);
  return found.filter((c) => {
    const mutated = text.slice(0, c.start) + c.replace + text.slice(c.end);
    try {
      esbuild.transformSync(mutated, { loader, jsx: 'automatic' });
      return true;
    } catch {
      return false;
    }
  });
}

const out = [];
for (const { path: file, rel } of JSON.parse(fs.readFileSync(listFile, 'utf8'))) {
  out.push(...candidates(fs.readFileSync(file, 'utf8'), rel));
}
process.stdout.write(JSON.stringify(out));
