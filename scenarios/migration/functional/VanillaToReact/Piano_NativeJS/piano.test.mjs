// VanillaToReact x Piano_NativeJS: the vanilla piano as a React 18 app (createRoot inside
// StrictMode, from src/main.jsx or the module index.html loads). The Web Audio API is a
// recording stand-in (webaudio.mjs); keys are found by the class `key` and their labels,
// as the prompt keeps them; mouse and computer keys are used as a user would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageStub } from './harness.mjs';
import { fakeAudio } from './webaudio.mjs';
import { classComponents, listenerLog, openReact18, rendersInStrictMode } from './react18.mjs';

const NOTES = [
  ['A', 261.63], ['W', 277.18], ['S', 293.66], ['E', 311.13], ['D', 329.63], ['F', 349.23], ['T', 369.99],
  ['G', 392.0], ['Y', 415.3], ['H', 440.0], ['U', 466.16], ['J', 493.88], ['K', 523.25],
];
const FREQUENCY = Object.fromEntries(NOTES);
const BLACK = ['W', 'E', 'T', 'Y', 'U'];
const RELEASE = 0.3;

const near = (a, b, within = 0.01) => Math.abs(a - b) <= within;

function labelOf(key) {
  const text = key.textContent.trim();
  if (/^[A-Za-z]$/.test(text)) return text;
  const label = [...key.querySelectorAll('*')].find((el) => /^[A-Za-z]$/.test(el.textContent.trim()));
  return label ? label.textContent.trim() : text;
}

async function openPiano({ setup } = {}) {
  const audio = fakeAudio();
  const app = await openReact18({
    entry: 'src/main.jsx',
    setup: (window) => { audio.install(window); if (setup) setup(window); },
  });
  const keys = () => [...app.document.querySelectorAll('.key')];
  const act = async (action) => { await action; await app.settle(); };
  const piano = {
    app, audio,
    keys,
    key(label) {
      const key = keys().find((el) => labelOf(el) === label);
      assert.ok(key, `expected a piano key (class "key") labelled "${label}"; the keys are labelled ${JSON.stringify(keys().map(labelOf))}`);
      return key;
    },
    lit: (label) => piano.key(label).classList.contains('active'),
    litLabels: () => keys().filter((el) => el.classList.contains('active')).map(labelOf).sort(),
    // Each action lets React finish rendering: mouse moves are not urgent updates to it.
    press: (label) => act(app.user.pointer({ keys: '[MouseLeft>]', target: piano.key(label) })),
    release: (label) => act(app.user.pointer({ keys: '[/MouseLeft]', target: piano.key(label) })),
    moveTo: (label) => act(app.user.pointer({ target: piano.key(label) })),
    keyDown: (key) => act(app.user.keyboard(`{${key}>}`)),
    keyUp: (key) => act(app.user.keyboard(`{/${key}}`)),
    frequencies: () => audio.sounding().map((osc) => osc.frequency.value),
  };
  return piano;
}

function assertPlays(piano, label, message) {
  const playing = piano.audio.sounding().filter((osc) => near(osc.frequency.value, FREQUENCY[label]));
  assert.equal(playing.length, 1, `${message}: one oscillator at ${FREQUENCY[label]} Hz should sound; sounding: ${JSON.stringify(piano.frequencies())}`);
  return playing[0];
}

test('mounts with React 18 createRoot inside StrictMode', async () => {
  const { app } = await openPiano();
  assert.ok(rendersInStrictMode(app.document), 'the app should be rendered inside <React.StrictMode>');
});

test('renders function components only (no class components)', async () => {
  const piano = await openPiano();
  await piano.keyDown('a');
  const classes = classComponents(piano.app.document);
  assert.deepEqual(classes, [], `every component should be a function component; class components rendered: ${classes.join(', ')}`);
});

test('renders 13 keys labelled A W S E D F T G Y H U J K, white and black as on a piano', async () => {
  const piano = await openPiano();
  const labels = piano.keys().map(labelOf);
  assert.deepEqual([...labels].sort(), NOTES.map(([label]) => label).sort(), 'expected 13 keys (class "key") with the labels A W S E D F T G Y H U J K');
  for (const [label] of NOTES) {
    const colour = BLACK.includes(label) ? 'black' : 'white';
    assert.ok(piano.key(label).classList.contains(colour), `the key "${label}" should have the class "${colour}"`);
  }
  assert.deepEqual(piano.litLabels(), [], 'no key should be highlighted before playing');
});

test('the AudioContext is created on the first note, not before, and then reused', async () => {
  const piano = await openPiano();
  assert.equal(piano.audio.log.contexts.length, 0, 'no AudioContext should be created before the first note');
  await piano.press('A');
  assert.equal(piano.audio.log.contexts.length, 1, 'the first note should create the AudioContext');
  await piano.release('A');
  await piano.keyDown('d');
  await piano.keyUp('d');
  assert.equal(piano.audio.log.contexts.length, 1, 'later notes should reuse the same AudioContext');
});

test('pressing a key with the mouse plays its note (triangle wave) and highlights the key', async () => {
  const piano = await openPiano();
  await piano.press('A');
  const osc = assertPlays(piano, 'A', 'after pressing A');
  assert.equal(osc.type, 'triangle', 'the default waveform should be triangle');
  assert.ok(piano.audio.reachesDestination(osc), 'the oscillator should be connected (through its gain) to the destination');
  assert.ok(piano.lit('A'), 'the pressed key should have the class "active"');
  assert.deepEqual(piano.litLabels(), ['A'], 'only the pressed key should be highlighted');
});

test('releasing the mouse button on the key stops the note with a 0.3 s exponential release', async () => {
  const piano = await openPiano();
  await piano.press('S');
  const osc = assertPlays(piano, 'S', 'after pressing S');
  const context = piano.audio.log.contexts[0];
  context.currentTime = 5;
  await piano.release('S');
  assert.equal(piano.lit('S'), false, 'the released key should lose the class "active"');
  const ramps = piano.audio.gainsOf(osc).flatMap((gain) => gain.gain.events)
    .filter((e) => (e.kind === 'exponential' && e.value > 0 && e.value <= 0.01 && near(e.time, 5 + RELEASE, 0.05)) || (e.kind === 'target' && e.value <= 0.01 && near(e.time, 5, 0.05)));
  assert.ok(ramps.length > 0, `on release the note's gain should ramp down exponentially to near 0 over ${RELEASE} s (exponentialRampToValueAtTime(~0, now + ${RELEASE}))`);
  await piano.app.waitFor(() => assert.ok(osc.stops.length > 0, 'the released oscillator should be stopped'));
  const stopAt = osc.stops[0];
  assert.ok(stopAt === 0 || stopAt >= 5 + RELEASE - 0.05, `the oscillator should stop at the end of the release (${5 + RELEASE}), not at ${stopAt}`);
});

test('leaving a key with the button held stops it, and sliding onto the next key plays that one', async () => {
  const piano = await openPiano();
  await piano.press('D');
  assertPlays(piano, 'D', 'after pressing D');
  await piano.moveTo('F');
  assert.deepEqual(piano.frequencies(), [FREQUENCY.F], 'sliding from D to F with the button held should stop D and play F');
  assert.deepEqual(piano.litLabels(), ['F'], 'the highlight should follow to F');
  await piano.moveTo('T');
  assert.deepEqual(piano.frequencies(), [FREQUENCY.T], 'sliding on to T should play T alone');
  await piano.release('T');
  assert.deepEqual(piano.frequencies(), [], 'releasing the button should stop the last note');
});

test('moving over keys with the button up plays nothing; the button state counts anywhere on the page', async () => {
  const piano = await openPiano();
  const { app } = piano;
  await piano.moveTo('G');
  await piano.moveTo('H');
  assert.equal(piano.audio.started().length, 0, 'hovering keys without the button should play nothing');
  await app.user.pointer([{ target: app.document.body }, { keys: '[MouseLeft>]', target: app.document.body }]);
  await app.settle();
  await piano.moveTo('J');
  assertPlays(piano, 'J', 'pressing the button outside the keys and sliding onto J');
  await app.user.pointer([{ target: app.document.body }, { keys: '[/MouseLeft]', target: app.document.body }]);
  await app.settle();
  const before = piano.audio.started().length;
  await piano.moveTo('K');
  assert.equal(piano.audio.started().length, before, 'after releasing the button outside the keys, hovering K should play nothing');
});

test('computer keys play their notes while held: keydown starts, keyup stops', async () => {
  const piano = await openPiano();
  await piano.keyDown('g');
  assertPlays(piano, 'G', 'while g is held');
  assert.deepEqual(piano.litLabels(), ['G'], 'the key G should be highlighted while g is held');
  await piano.keyUp('g');
  assert.deepEqual(piano.frequencies(), [], 'keyup should stop the note');
  assert.deepEqual(piano.litLabels(), [], 'keyup should remove the highlight');
});

test('upper-case keys (Shift or Caps Lock) play the same notes', async () => {
  const piano = await openPiano();
  const { app } = piano;
  // user-event always reports lower-case letters; a browser reports "H" with Shift or Caps Lock
  const key = async (type, init) => { app.fireEvent[type](app.document.activeElement || app.document.body, init); await app.settle(); };
  await key('keyDown', { key: 'H', code: 'KeyH' });
  assertPlays(piano, 'H', 'while H (Caps Lock) is held');
  assert.ok(piano.lit('H'), 'the key H should be highlighted');
  await key('keyUp', { key: 'H', code: 'KeyH' });
  assert.deepEqual(piano.frequencies(), [], 'releasing H should stop the note');
  await key('keyDown', { key: 'J', code: 'KeyJ', shiftKey: true });
  assertPlays(piano, 'J', 'while Shift+J is held');
  await key('keyUp', { key: 'J', code: 'KeyJ', shiftKey: true });
  assert.deepEqual(piano.frequencies(), [], 'releasing Shift+J should stop the note');
});

test('auto-repeated keydown events do not restart a held note', async () => {
  const piano = await openPiano();
  await piano.app.user.keyboard('{e>4}');
  assert.equal(piano.audio.started().length, 1, `holding e (keydown repeated) should start one oscillator, not ${piano.audio.started().length}`);
  await piano.keyUp('e');
  assert.deepEqual(piano.frequencies(), [], 'releasing e should stop the note');
  await piano.keyDown('e');
  assert.equal(piano.audio.started().length, 2, 'pressing e again after releasing it should play a new note');
});

test('a note already sounding is not started twice (keyboard then mouse on the same key)', async () => {
  const piano = await openPiano();
  await piano.keyDown('u');
  await piano.press('U');
  assert.equal(piano.audio.started().length, 1, 'pressing the key U while u sounds should not start a second oscillator');
  assertPlays(piano, 'U', 'with u held and U pressed');
});

test('keys outside the note table are ignored', async () => {
  const piano = await openPiano();
  await piano.app.user.keyboard('zqx1{Enter}{ArrowLeft} ');
  assert.equal(piano.audio.started().length, 0, 'keys that are not A W S E D F T G Y H U J K should play nothing');
  assert.deepEqual(piano.app.errors, [], 'other keys should cause no error');
});

test('every computer key plays its note at the original frequency (C4 261.63 Hz ... C5 523.25 Hz)', async () => {
  const piano = await openPiano();
  for (const [label, frequency] of NOTES) {
    const key = label.toLowerCase();
    await piano.keyDown(key);
    assert.deepEqual(piano.frequencies().map((f) => Math.round(f * 100) / 100), [frequency], `${key} should play ${frequency} Hz`);
    await piano.keyUp(key);
  }
});

test('the waveform select offers sine, triangle, square and sawtooth, and applies to the next notes', async () => {
  const piano = await openPiano();
  const select = piano.app.queryByRole('combobox');
  assert.ok(select, 'expected a waveform <select>');
  assert.deepEqual([...select.options].map((o) => o.value), ['sine', 'triangle', 'square', 'sawtooth'], 'the waveform options should be sine, triangle, square, sawtooth');
  assert.equal(select.value, 'triangle', 'triangle should be selected by default');
  await piano.keyDown('a');
  await piano.app.user.selectOptions(select, 'square');
  await piano.keyDown('s');
  const [first, second] = piano.audio.started();
  assert.equal(first.type, 'triangle', 'a note started before the change keeps its waveform');
  assert.equal(second.type, 'square', 'a note started after choosing square should be square');
  await piano.app.user.selectOptions(select, 'sawtooth');
  await piano.keyDown('d');
  assert.equal(piano.audio.started()[2].type, 'sawtooth', 'a note started after choosing sawtooth should be sawtooth');
});

test('several notes sound together, each with its own oscillator, and are released separately', async () => {
  const piano = await openPiano();
  await piano.keyDown('a');
  await piano.keyDown('d');
  await piano.keyDown('g');
  assert.deepEqual(piano.frequencies().sort(), [FREQUENCY.A, FREQUENCY.D, FREQUENCY.G].sort(), 'a, d and g held should sound C4, E4 and G4');
  assert.deepEqual(piano.litLabels(), ['A', 'D', 'G'], 'the three held keys should be highlighted');
  const c4 = assertPlays(piano, 'A', 'with the chord held');
  await piano.keyUp('d');
  assert.deepEqual(piano.frequencies().sort(), [FREQUENCY.A, FREQUENCY.G].sort(), 'releasing d should stop E4 only');
  assert.deepEqual(piano.litLabels(), ['A', 'G'], 'releasing d should unhighlight D only');
  const c4Fades = piano.audio.gainsOf(c4).flatMap((gain) => gain.gain.events).filter((e) => ['exponential', 'linear', 'target'].includes(e.kind));
  assert.deepEqual(c4Fades, [], 'releasing one note must not fade the others');
});

// Self-contained (compiled in the page's realm by pageStub): DOMTokenList's add, remove,
// toggle and replace note each call in the array returned (written with defineProperty as
// it was before the app ran), then do what they did.
function classListCalls(window) {
  const define = window.Object.defineProperty;
  const calls = [];
  for (const name of ['add', 'remove', 'toggle', 'replace']) {
    const original = window.DOMTokenList.prototype[name];
    window.DOMTokenList.prototype[name] = function patched(...args) {
      define(calls, calls.length, { value: `classList.${name}(${args.join(', ')})`, enumerable: true });
      return original.apply(this, args);
    };
  }
  return calls;
}

test('the highlight is rendered from state, not set with classList', async () => {
  let calls = [];
  const piano = await openPiano({ setup(window) { calls = pageStub(window, classListCalls); } });
  await piano.press('F');
  await piano.release('F');
  await piano.keyDown('j');
  await piano.keyUp('j');
  assert.deepEqual([...calls], [], 'keys should be highlighted through JSX className, not classList calls');
});

test('unmounting removes the document listeners: computer keys no longer play', async () => {
  const types = ['keydown', 'keyup', 'mousedown', 'mouseup', 'mouseover', 'mouseout'];
  const onDocument = listenerLog(types);
  const onWindow = listenerLog(types);
  const piano = await openPiano({ setup(window) { onDocument.install(window.document); onWindow.install(window); } });
  await piano.keyDown('k');
  await piano.keyUp('k');
  const started = piano.audio.started().length;
  assert.equal(started, 1, 'k should play before unmounting');
  await piano.app.unmount();
  const left = types.map((type) => onDocument.live(type) + onWindow.live(type)).reduce((a, b) => a + b, 0);
  assert.equal(left, 0, `after unmounting, ${left} keyboard or mouse listener(s) are still registered on document or window`);
  await piano.app.user.keyboard('{k>}{/k}');
  assert.equal(piano.audio.started().length, started, 'after unmounting, keys should play nothing');
});

test('plays with the mouse and the keyboard without errors or React warnings', async () => {
  const piano = await openPiano();
  await piano.press('A');
  await piano.moveTo('S');
  await piano.release('S');
  await piano.keyDown('y');
  await piano.app.user.selectOptions(piano.app.getByRole('combobox'), 'sine');
  await piano.keyUp('y');
  await piano.app.settle();
  assert.deepEqual(piano.app.errors.slice(0, 3), [], 'the console should show no errors or React warnings');
});
