var WHITE_KEY_WIDTH = 60;
var RELEASE_TIME = 0.3; // seconds

var audioCtx = null;
var voices = {};      // note name -> { osc: OscillatorNode, gain: GainNode }
var keyMap = {};      // computer key -> note
var mouseIsDown = false;
var waveType = 'triangle';

function getAudioContext() {
  if (!audioCtx) { // created on first use: browsers only allow audio after a user gesture
    var Ctx = window.AudioContext || window.webkitAudioContext;
    audioCtx = new Ctx();
  }
  return audioCtx;
}

function setKeyActive(note, on) {
  var el = document.querySelector('[data-note="' + note.name + '"]');
  if (!el) return;
  el.classList[on ? 'add' : 'remove']('active');
}

function startNote(note) {
  if (voices[note.name]) return; // already sounding
  var ctx = getAudioContext();
  var osc = ctx.createOscillator();
  var gain = ctx.createGain();
  osc.type = waveType;
  osc.frequency.value = note.freq;
  gain.gain.setValueAtTime(0.25, ctx.currentTime);
  osc.connect(gain);
  gain.connect(ctx.destination);
  osc.start();
  voices[note.name] = { osc: osc, gain: gain };
  setKeyActive(note, true);
}

function stopNote(note) {
  var voice = voices[note.name];
  if (!voice) return;
  var now = getAudioContext().currentTime;
  voice.gain.gain.setValueAtTime(voice.gain.gain.value, now);
  voice.gain.gain.exponentialRampToValueAtTime(0.0001, now + RELEASE_TIME);
  voice.osc.stop(now + RELEASE_TIME);
  delete voices[note.name];
  setKeyActive(note, false);
}

function bindMouse(el, note) {
  el.addEventListener('mousedown', function (e) {
    e.preventDefault(); // no text selection while playing
    mouseIsDown = true;
    startNote(note);
  });
  el.addEventListener('mouseup', function () { stopNote(note); });
  el.addEventListener('mouseleave', function () { stopNote(note); });
  el.addEventListener('mouseenter', function () {
    if (mouseIsDown) startNote(note);
  });
}

function renderKeyboard(container) {
  var whiteCount = 0;
  for (var i = 0; i < NOTES.length; i++) {
    var note = NOTES[i];
    var el = document.createElement('div');
    el.className = 'key ' + (note.black ? 'black' : 'white');
    el.setAttribute('data-note', note.name);
    if (note.black) {
      el.style.left = (whiteCount * WHITE_KEY_WIDTH - 18) + 'px';
    } else {
      el.style.left = (whiteCount * WHITE_KEY_WIDTH) + 'px';
      whiteCount++;
    }
    el.innerHTML = '<span class="label">' + note.key.toUpperCase() + '</span>';
    bindMouse(el, note);
    container.appendChild(el);
    keyMap[note.key] = note;
  }
  container.style.width = (whiteCount * WHITE_KEY_WIDTH) + 'px';
}

document.addEventListener('mouseup', function () {
  mouseIsDown = false;
});

document.addEventListener('keydown', function (e) {
  if (e.repeat) return; // holding a key fires keydown again and again
  var note = keyMap[e.key.toLowerCase()];
  if (note) startNote(note);
});

document.addEventListener('keyup', function (e) {
  var note = keyMap[e.key.toLowerCase()];
  if (note) stopNote(note);
});

document.addEventListener('DOMContentLoaded', function () {
  renderKeyboard(document.getElementById('keyboard'));
  document.getElementById('wave').addEventListener('change', function (e) {
    waveType = e.target.value;
  });
});
