import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ITEMS, calls, focusTab, focused, renderTabs, selected, tab, tabs, visiblePanels, withDisabled } from './tabs.mjs';

test('tablist has the aria-label and aria-orientation horizontal by default', async () => {
  const app = await renderTabs({ items: ITEMS, 'aria-label': 'Sections' });
  const list = app.queryByRole('tablist');
  assert.ok(list, 'expected an element with role="tablist"');
  assert.equal(list.getAttribute('aria-label'), 'Sections', 'the tablist should carry the aria-label prop');
  assert.equal(list.getAttribute('aria-orientation'), 'horizontal', 'aria-orientation should default to "horizontal"');
  assert.equal(tabs(app).length, 4, 'expected one role="tab" per item inside the tablist');
  for (const t of tabs(app)) assert.ok(list.contains(t), 'every tab should be inside the tablist');
  app.close();
});

test('each tab is a button type=button with aria-selected, and aria-disabled on disabled tabs', async () => {
  const app = await renderTabs({ items: withDisabled('three') });
  for (const t of tabs(app)) {
    assert.equal(t.tagName, 'BUTTON', `tab "${t.textContent}" should be a <button>`);
    assert.equal(t.getAttribute('type'), 'button', `tab "${t.textContent}" should have type="button"`);
  }
  assert.deepEqual(tabs(app).map((t) => t.getAttribute('aria-selected')), ['true', 'false', 'false', 'false'],
    'aria-selected should be "true" on the selected (first) tab and "false" on the others');
  assert.equal(tab(app, 'Three').getAttribute('aria-disabled'), 'true', 'the disabled tab should have aria-disabled="true"');
  assert.notEqual(tab(app, 'One').getAttribute('aria-disabled'), 'true', 'an enabled tab should not be aria-disabled');
  app.close();
});

test('each tab and its panel point at each other with aria-controls and aria-labelledby', async () => {
  const app = await renderTabs({ items: ITEMS });
  const panels = app.getAllByRole('tabpanel', { hidden: true });
  assert.equal(panels.length, 4, 'expected one role="tabpanel" per item (hidden ones included)');
  for (const [index, t] of tabs(app).entries()) {
    const panelId = t.getAttribute('aria-controls');
    assert.ok(panelId, `tab "${t.textContent}" should have aria-controls`);
    const panel = app.document.getElementById(panelId);
    assert.ok(panel && panel.getAttribute('role') === 'tabpanel', `aria-controls of tab "${t.textContent}" should be the id of a tabpanel`);
    assert.equal(panel.textContent.trim(), ITEMS[index].content, `tab "${t.textContent}" should control the panel with its own content`);
    assert.ok(t.id, `tab "${t.textContent}" should have an id`);
    assert.equal(panel.getAttribute('aria-labelledby'), t.id, 'a panel\'s aria-labelledby should be its tab\'s id');
    assert.equal(panel.getAttribute('tabindex'), '0', 'every panel should have tabIndex 0');
  }
  app.close();
});

test('only the selected panel is visible; the others have the hidden attribute', async () => {
  const app = await renderTabs({ items: ITEMS, defaultValue: 'two' });
  assert.deepEqual(visiblePanels(app), ['Panel two'], 'only the selected tab\'s panel should be visible');
  const hidden = app.getAllByRole('tabpanel', { hidden: true }).filter((p) => p.hasAttribute('hidden'));
  assert.equal(hidden.length, 3, 'the three other panels should have the hidden attribute');
  app.close();
});

test('two instances on one page never share an id', async () => {
  const app = await renderTabs([{ items: ITEMS, 'aria-label': 'First' }, { items: ITEMS, 'aria-label': 'Second' }]);
  const ids = [...app.document.querySelectorAll('[id]')].map((e) => e.id).filter((id) => id !== 'root');
  assert.ok(ids.length >= 16, `expected ids on every tab and panel of both instances, found ${ids.length}`);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  assert.deepEqual(repeated, [], 'ids must be unique across two Tabs instances (useId)');
  app.close();
});

test('roving tab stop: the selected tab has tabIndex 0 and every other tab -1', async () => {
  const app = await renderTabs({ items: ITEMS, defaultValue: 'three' });
  assert.deepEqual(tabs(app).map((t) => t.getAttribute('tabindex')), ['-1', '-1', '0', '-1'],
    'tabIndex should be 0 on the selected tab ("Three") and -1 on the others');
  await app.user.click(tab(app, 'One'));
  assert.deepEqual(tabs(app).map((t) => t.getAttribute('tabindex')), ['0', '-1', '-1', '-1'],
    'after selecting "One", tabIndex 0 should move to it');
  app.close();
});

test('pressing Tab from outside lands on the selected tab', async () => {
  const app = await renderTabs({ items: ITEMS, defaultValue: 'three' });
  await app.user.tab();
  assert.equal(focused(app), 'Three', 'the first Tab press should focus the selected tab, the only tab stop in the list');
  app.close();
});

test('starts on defaultValue, or on the first enabled tab without it', async () => {
  const app = await renderTabs({ items: ITEMS, defaultValue: 'four' });
  assert.deepEqual(selected(app), ['Four'], 'with defaultValue="four" the tab "Four" should start selected');
  assert.deepEqual(visiblePanels(app), ['Panel four'], 'and its panel should be the one shown');
  app.close();
  const second = await renderTabs({ items: withDisabled('one') });
  assert.deepEqual(selected(second), ['Two'], 'without defaultValue the first enabled tab ("Two", as "One" is disabled) should start selected');
  second.close();
});

test('clicking an enabled tab selects it, shows its panel and calls onChange with its id', async () => {
  const spy = calls();
  const app = await renderTabs({ items: ITEMS, onChange: spy.onChange });
  await app.user.click(tab(app, 'Three'));
  assert.deepEqual(selected(app), ['Three'], 'clicking "Three" should select it');
  assert.deepEqual(visiblePanels(app), ['Panel three'], 'clicking "Three" should show its panel');
  assert.deepEqual(spy.list, ['three'], 'onChange should be called once with "three"');
  app.close();
});

test('clicking a disabled tab neither selects it nor calls onChange', async () => {
  const spy = calls();
  const app = await renderTabs({ items: withDisabled('two'), onChange: spy.onChange });
  await app.user.click(tab(app, 'Two'));
  assert.deepEqual(selected(app), ['One'], 'the disabled tab must not become selected');
  assert.deepEqual(visiblePanels(app), ['Panel one'], 'the panel shown should not change');
  assert.deepEqual(spy.list, [], 'onChange must not be called for a disabled tab');
  app.close();
});

test('onChange is not called when the selection does not change', async () => {
  const spy = calls();
  const app = await renderTabs({ items: ITEMS, onChange: spy.onChange, defaultValue: 'two' });
  await app.user.click(tab(app, 'Two'));
  assert.deepEqual(spy.list, [], 'clicking the already selected tab must not call onChange');
  app.close();
  const only = calls();
  const single = await renderTabs({ items: withDisabled('two', 'three', 'four'), onChange: only.onChange });
  await single.user.click(tab(single, 'One'));
  await single.user.keyboard('{ArrowRight}{End}');
  assert.deepEqual(only.list, [], 'with a single enabled tab, arrow keys and End select nothing new, so onChange must not be called');
  assert.equal(focused(single), 'One', 'focus should stay on the only enabled tab');
  single.close();
});

test('automatic activation: ArrowRight and ArrowLeft move focus and select, wrapping around', async () => {
  const spy = calls();
  const app = await renderTabs({ items: ITEMS, onChange: spy.onChange });
  await app.user.click(tab(app, 'One'));
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'Two', 'ArrowRight should move focus to the next tab');
  assert.deepEqual(selected(app), ['Two'], 'with automatic activation the focused tab should be selected');
  assert.deepEqual(visiblePanels(app), ['Panel two'], 'and its panel shown');
  await app.user.keyboard('{ArrowLeft}{ArrowLeft}');
  assert.equal(focused(app), 'Four', 'ArrowLeft from the first tab should wrap to the last');
  assert.deepEqual(selected(app), ['Four'], 'the wrapped-to tab should be selected');
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'One', 'ArrowRight from the last tab should wrap to the first');
  assert.deepEqual(spy.list, ['two', 'one', 'four', 'one'], 'onChange should be called for each newly selected tab');
  app.close();
});

test('arrow keys skip disabled tabs', async () => {
  const app = await renderTabs({ items: withDisabled('two', 'four') });
  await app.user.click(tab(app, 'One'));
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'Three', 'ArrowRight from "One" should skip the disabled "Two"');
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'One', 'ArrowRight from "Three" should skip the disabled "Four" and wrap to "One"');
  await app.user.keyboard('{ArrowLeft}');
  assert.equal(focused(app), 'Three', 'ArrowLeft from "One" should wrap past the disabled "Four" to "Three"');
  assert.deepEqual(selected(app), ['Three'], 'a disabled tab must never be selected by the keys');
  app.close();
});

test('Home and End move to the first and last enabled tab', async () => {
  const app = await renderTabs({ items: [{ id: 'zero', label: 'Zero', content: 'Panel zero', disabled: true }, ...ITEMS, { id: 'five', label: 'Five', content: 'Panel five', disabled: true }] });
  await app.user.click(tab(app, 'Two'));
  await app.user.keyboard('{End}');
  assert.equal(focused(app), 'Four', 'End should focus the last enabled tab ("Four"; "Five" is disabled)');
  assert.deepEqual(selected(app), ['Four'], 'End should select it with automatic activation');
  await app.user.keyboard('{Home}');
  assert.equal(focused(app), 'One', 'Home should focus the first enabled tab ("One"; "Zero" is disabled)');
  assert.deepEqual(selected(app), ['One'], 'Home should select it with automatic activation');
  app.close();
});

test('manual activation: arrows only move focus; Enter and Space select the focused tab', async () => {
  const spy = calls();
  const app = await renderTabs({ items: ITEMS, activation: 'manual', onChange: spy.onChange });
  await focusTab(app, 'One');
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'Two', 'ArrowRight should move focus to "Two"');
  assert.deepEqual(selected(app), ['One'], 'with manual activation moving focus must not change the selection');
  assert.deepEqual(spy.list, [], 'with manual activation moving focus must not call onChange');
  await app.user.keyboard('{Enter}');
  assert.deepEqual(selected(app), ['Two'], 'Enter should select the focused tab');
  assert.deepEqual(visiblePanels(app), ['Panel two'], 'Enter should show the focused tab\'s panel');
  await app.user.keyboard('{End}');
  assert.equal(focused(app), 'Four', 'End should move focus to the last tab');
  assert.deepEqual(selected(app), ['Two'], 'End must not select with manual activation');
  await app.user.keyboard(' ');
  assert.deepEqual(selected(app), ['Four'], 'Space should select the focused tab');
  assert.deepEqual(spy.list, ['two', 'four'], 'onChange should be called once per selection');
  app.close();
});

test('vertical orientation: ArrowDown and ArrowUp move, ArrowLeft and ArrowRight do not', async () => {
  const app = await renderTabs({ items: ITEMS, orientation: 'vertical' });
  assert.equal(app.getByRole('tablist').getAttribute('aria-orientation'), 'vertical', 'aria-orientation should be "vertical"');
  await app.user.click(tab(app, 'One'));
  await app.user.keyboard('{ArrowRight}');
  assert.equal(focused(app), 'One', 'ArrowRight should do nothing in a vertical tab list');
  await app.user.keyboard('{ArrowDown}');
  assert.equal(focused(app), 'Two', 'ArrowDown should move focus to the next tab');
  assert.deepEqual(selected(app), ['Two'], 'and select it (automatic activation)');
  await app.user.keyboard('{ArrowUp}{ArrowUp}');
  assert.equal(focused(app), 'Four', 'ArrowUp from the first tab should wrap to the last');
  app.close();
});

test('controlled: selection follows the value prop only, onChange is still called', async () => {
  const spy = calls();
  const app = await renderTabs({ items: ITEMS, value: 'two', onChange: spy.onChange });
  assert.deepEqual(selected(app), ['Two'], 'value="two" should select "Two"');
  await app.user.click(tab(app, 'Three'));
  assert.deepEqual(spy.list, ['three'], 'a click on "Three" should call onChange("three")');
  assert.deepEqual(selected(app), ['Two'], 'while value stays "two" the selection must not change');
  assert.deepEqual(visiblePanels(app), ['Panel two'], 'while value stays "two" the panel must not change');
  await app.rerender({ items: ITEMS, value: 'three', onChange: spy.onChange });
  assert.deepEqual(selected(app), ['Three'], 'after the parent passes value="three" "Three" should be selected');
  assert.deepEqual(visiblePanels(app), ['Panel three'], 'and its panel shown');
  await app.rerender({ items: ITEMS, value: 'one', onChange: spy.onChange });
  assert.deepEqual(selected(app), ['One'], 'the selection should follow every new value prop');
  app.close();
});

test('an empty items array renders nothing', async () => {
  const app = await renderTabs({ items: [], 'aria-label': 'Empty' });
  const root = app.document.getElementById('root');
  assert.equal(root.innerHTML, '', 'with items=[] the component should render nothing (no tablist, no wrapper)');
  app.close();
});

test('className is applied to the element that wraps the tabs', async () => {
  const app = await renderTabs({ items: ITEMS, className: 'my-settings-tabs' });
  const styled = app.document.querySelector('.my-settings-tabs');
  assert.ok(styled, 'an element should carry the className prop');
  assert.ok(styled.contains(app.getByRole('tablist')), 'the element with className should contain the tab list');
  app.close();
});
