// jsdom 20 (Jest's jsdom environment) matches every rule of its default style sheet, about
// 120, against an element at each getComputedStyle, and again for each of its ancestors
// (`visibility` inherits); Testing Library's role queries and user-event's pointer checks
// call it for every element they look at. Most of those rules can match only elements of a
// few names (`address, blockquote, center, div, ...`): with this, such a rule is matched
// only against elements of those names; any other rule, and every rule of the page's own
// sheets, as before. The same rules in the same order reach the caller, so every computed
// style is what jsdom gives without it.
//
// Called with the folder of Jest's jsdom environment before that loads jsdom (jsdom's
// Window takes the function as it loads). A jsdom whose style rules are shaped otherwise
// (jsdom 22 and later cache the cascade themselves) is left as it is.
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
  const { matchesDontThrow } = selectors;
  const { forEach, indexOf } = Array.prototype;
  const indexed = Array.from(cssom.parse(text).cssRules, (rule) => [rule, namesOf(rule)]);

  function handleSheet(sheet, elementImpl, handleRule) {
    forEach.call(sheet.cssRules, (rule) => {
      if (rule.media) {
        if (indexOf.call(rule.media, 'screen') !== -1) {
          forEach.call(rule.cssRules, (inner) => {
            if (matchesDontThrow(elementImpl, inner.selectorText)) handleRule(inner);
          });
        }
      } else if (matchesDontThrow(elementImpl, rule.selectorText)) {
        handleRule(rule);
      }
    });
  }

  rules.forEachMatchingSheetRuleOfElement = (elementImpl, handleRule) => {
    const name = String(elementImpl._localName).toLowerCase();
    for (const [rule, names] of indexed) {
      if (names !== null && !names.has(name)) continue;
      if (rule.media) handleSheet({ cssRules: [rule] }, elementImpl, handleRule);
      else if (matchesDontThrow(elementImpl, rule.selectorText)) handleRule(rule);
    }
    forEach.call(elementImpl._ownerDocument.styleSheets._list, (sheet) => handleSheet(sheet, elementImpl, handleRule));
  };
  return true;
};
