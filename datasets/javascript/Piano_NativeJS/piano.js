// The piano's behaviour. Loaded at the end of <body>, after notes.js, so the keys in
// index.html already exist and no load event is needed.
//
// Every sounding note has its own oscillator and gain node; releasing a note ramps its
// gain down over RELEASE_TIME and stops the oscillator at the end of the ramp.
// Keys are addressed by their computer key ('a' ... 'k') everywhere: NOTES, voices and
// the data-key attribute of the key elements.
var RELEASE_TIME = 0.3; // seconds
var NOTE_GAIN = 0.25;
var AudioContextClass = window.AudioContext || window.webkitAudioContext;

var audioCtx = null;  // created on the first note: browsers only allow audio after a user gesture
var voices = {};      // computer key -> { osc: OscillatorNode, gain: GainNode } while it sounds
var mouseIsDown = false;
var waveSelect = document.getElementById('wave');

// Plays the note of a computer key and highlights its key.
function startNote(key) {
  if (voices[key]) return; // already sounding
  audioCtx = audioCtx || new AudioContextClass();
  var osc = audioCtx.createOscillator();
  var gain = audioCtx.createGain();
  osc.type = waveSelect.value; // the waveform chosen when the note starts
  osc.frequency.value = NOTES[key].freq;
  gain.gain.setValueAtTime(NOTE_GAIN, audioCtx.currentTime);
  osc.connect(gain);
  gain.connect(audioCtx.destination);
  osc.start();
  voices[key] = { osc: osc, gain: gain };
  document.querySelector('.key[data-key="' + key + '"]').classList.add('active');
}

// Releases the note of a computer key, if it sounds, and removes the highlight.
function stopNote(key) {
  var voice = voices[key];
  if (!voice) return;
  var now = audioCtx.currentTime;
  voice.gain.gain.setValueAtTime(voice.gain.gain.value, now);
  voice.gain.gain.exponentialRampToValueAtTime(0.0001, now + RELEASE_TIME);
  voice.osc.stop(now + RELEASE_TIME);
  delete voices[key];
  document.querySelector('.key[data-key="' + key + '"]').classList.remove('active');
}

// Sliding onto a key while the button is held plays it.
function glideNote(key) {
  if (mouseIsDown) startNote(key);
}

// What each event does to the note of its key.
var MOUSE_ACTIONS = {
  mousedown: startNote,
  mouseup: stopNote,
  mouseout: stopNote,
  mouseover: glideNote
};
var KEY_ACTIONS = {
  keydown: startNote, // auto-repeat is harmless: a sounding note is not started again
  keyup: stopNote
};

// One listener on the keyboard for all keys; the labels let the mouse through (style.css).
function onMouse(e) {
  var key = e.target.getAttribute('data-key');
  if (key) MOUSE_ACTIONS[e.type](key);
}

function onKey(e) {
  var key = e.key.toLowerCase();
  if (NOTES[key]) KEY_ACTIONS[e.type](key);
}

// The button state for glides, wherever on the page it is pressed or released.
function trackButton(e) {
  mouseIsDown = e.type === 'mousedown';
}

var keyboard = document.getElementById('keyboard');
keyboard.addEventListener('mousedown', onMouse);
keyboard.addEventListener('mouseup', onMouse);
keyboard.addEventListener('mouseout', onMouse);
keyboard.addEventListener('mouseover', onMouse);
document.addEventListener('mousedown', trackButton);
document.addEventListener('mouseup', trackButton);
document.addEventListener('keydown', onKey);
document.addEventListener('keyup', onKey);
