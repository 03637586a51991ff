// jsdom matches every rule of its default style sheet, about 120, against an element at
// each getComputedStyle, and again for each of its ancestors (`visibility` inherits);
// Testing Library's role queries and user-event's pointer checks call it for every element
// they look at (jsdom 22 and later keep a page's computed styles, but drop them at every
// change of the page, which a rendering test makes all the time). Most of those rules can
// match only elements of a few names (`address, blockquote, center, div, ...`): with this,
// such a rule is matched only against elements of those names; any other rule, and every
// rule of the page's own sheets, as before. The same rules in the same order reach the
// caller, so every computed style is what jsdom gives without it.
//
// Two ways in, one matcher (`sparseRules`):
// - jsdom 20 (Jest's jsdom environment): the module, called with the environment's folder
//   before that loads jsdom, replaces style-rules.js's exported matcher (jsdom's Window
//   takes the function as it loads). A jsdom whose style rules are shaped otherwise is left
//   as it is.
// - jsdom 25 (node's packages' script, which the harness and Vitest's test processes take
//   jsdom from): make-shared.mjs has esbuild end style-rules.js with one line that sets
//   the module's own matcher to `sparseRules(...)` (RULES_LINE below).
'use strict';
const path = require('path');

// The element names a rule can match, in lower case, or null: any (a selector whose last
// compound names no element, or one this reading does not take apart). Attribute values
// and the arguments of pseudo-classes are set aside first (a comma or combinator in them
// is not one of the rule's).
function namesOf(rule) {
  if (rule.media || typeof rule.selectorText !== 'string') return null;
  let text = rule.selectorText;
  if (text.includes('\\')) return null;
  text = text.replace(/\[(?:[^\]"']|"[^"]*"|'[^']*')*\]/g, '[]');
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\([^()"']*\)/g, '{}');
  }
  if (/[()"'|]/.test(text)) return null;
  const names = new Set();
  for (const selector of text.split(',')) {
    const last = selector.trim().split(/\s*[>+~]\s*|\s+/).pop() || '';
    const name = /^[A-Za-z][A-Za-z0-9-]*/.exec(last);
    if (name === null) return null;
    names.add(name[0].toLowerCase());
  }
  return names;
}

// What handles one sheet's rules for an element, as jsdom does (the rules of a media rule
// for `screen`, in order).
function handleSheet(sheet, elementImpl, handleRule, matchesDontThrow) {
  Array.prototype.forEach.call(sheet.cssRules, (rule) => {
    if (rule.media) {
      if (Array.prototype.indexOf.call(rule.media, 'screen') !== -1) {
        Array.prototype.forEach.call(rule.cssRules, (inner) => {
          if (matchesDontThrow(elementImpl, inner.selectorText)) handleRule(inner);
        });
      }
    } else if (matchesDontThrow(elementImpl, rule.selectorText)) {
      handleRule(rule);
    }
  });
}

// jsdom's forEachMatchingSheetRuleOfElement over `parsed` (the default sheet, parsed by the
// CSS parser that jsdom uses), with the default sheet's rules indexed by element name.
function sparseRules(parsed, matchesDontThrow) {
  const indexed = Array.from(parsed.cssRules, (rule) => [rule, namesOf(rule)]);
  return (elementImpl, handleRule) => {
    const name = String(elementImpl._localName).toLowerCase();
    for (const [rule, names] of indexed) {
      if (names !== null && !names.has(name)) continue;
      if (rule.media) handleSheet({ cssRules: [rule] }, elementImpl, handleRule, matchesDontThrow);
      else if (matchesDontThrow(elementImpl, rule.selectorText)) handleRule(rule);
    }
    Array.prototype.forEach.call(elementImpl._ownerDocument.styleSheets._list, (sheet) =>
      handleSheet(sheet, elementImpl, handleRule, matchesDontThrow));
  };
}

module.exports = function sparseDefaultSheet(environment) {
  let root;
  try {
    root = path.dirname(require.resolve('jsdom/package.json', { paths: [environment] }));
  } catch {
    return false;
  }
  const helpers = path.join(root, 'lib', 'jsdom', 'living', 'helpers');
  let rules, selectors, cssom, text;
  try {
    rules = require(path.join(helpers, 'style-rules.js'));
    selectors = require(path.join(helpers, 'selectors.js'));
    cssom = require(require.resolve('cssom', { paths: [root] }));
    text = require(path.join(root, 'lib', 'jsdom', 'browser', 'default-stylesheet.js'));
  } catch {
    return false;
  }
  if (typeof rules.forEachMatchingSheetRuleOfElement !== 'function' || 'getDeclarationForElement' in rules) {
    return false;
  }
  rules.forEachMatchingSheetRuleOfElement = sparseRules(cssom.parse(text), selectors.matchesDontThrow);
  return true;
};
module.exports.sparseRules = sparseRules;

// jsdom 25's style-rules.js, as make-shared.mjs bundles it: what its module must hold for
// RULES_LINE (its own names) and the line that, added at its end, indexes its sheet.
module.exports.RULES_SHAPE = [
  'function forEachMatchingSheetRuleOfElement(elementImpl, handleRule) {',
  'const cssom = require(',
  'const defaultStyleSheet = require(',
  'const { matchesDontThrow } = require(',
  'handleSheet(parsedDefaultStyleSheet);',
];
module.exports.RULES_LINE = (sheet) =>
  `\nforEachMatchingSheetRuleOfElement = require(${JSON.stringify(sheet)}).sparseRules(cssom.parse(defaultStyleSheet), matchesDontThrow);\n`;
