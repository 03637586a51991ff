// A recording stand-in for the Web Audio API, installed in the page with the harness's
// `setup(window)`: AudioContext (and webkitAudioContext), its factory methods and the
// OscillatorNode/GainNode constructors. Nothing sounds; every context, oscillator, gain,
// connection, start, stop and parameter change is kept in `log` for the tests. The stand-in
// is made in the page's realm (the harness's pageStub): the tests read its log from outside.
import { pageStub } from './harness.mjs';

// Self-contained (compiled in the page's realm by pageStub): installs the classes on
// `window` and returns the page's log and GainNode.
function webAudio(window) {
  const log = { contexts: [], oscillators: [], gains: [] };

  class AudioParam {
    constructor(value) { this.current = value; this.events = []; }
    get value() { return this.current; }
    set value(value) { this.current = value; this.events.push({ kind: 'value', value }); }
    setValueAtTime(value, time) { this.current = value; this.events.push({ kind: 'set', value, time }); return this; }
    linearRampToValueAtTime(value, time) { this.events.push({ kind: 'linear', value, time }); return this; }
    exponentialRampToValueAtTime(value, time) { this.events.push({ kind: 'exponential', value, time }); return this; }
    setTargetAtTime(value, time, constant) { this.events.push({ kind: 'target', value, time, constant }); return this; }
    cancelScheduledValues(time) { this.events.push({ kind: 'cancel', time }); return this; }
    cancelAndHoldAtTime(time) { this.events.push({ kind: 'cancel', time }); return this; }
  }

  class AudioNode {
    constructor(context) { this.context = context; this.outputs = []; }
    connect(target) { this.outputs.push(target); return target; }
    disconnect() { this.outputs = []; }
  }

  class OscillatorNode extends AudioNode {
    constructor(context, options = {}) {
      super(context);
      this.type = options.type ?? 'sine';
      this.frequency = new AudioParam(options.frequency ?? 440);
      this.detune = new AudioParam(options.detune ?? 0);
      this.starts = [];
      this.stops = [];
      this.onended = null;
      log.oscillators.push(this);
    }
    start(time = 0) { this.starts.push(time); }
    stop(time = 0) { this.stops.push(time); }
    setPeriodicWave() {}
    addEventListener() {}
    removeEventListener() {}
  }

  class GainNode extends AudioNode {
    constructor(context, options = {}) { super(context); this.gain = new AudioParam(options.gain ?? 1); log.gains.push(this); }
  }

  class AudioContext {
    constructor() {
      this.currentTime = 2;
      this.sampleRate = 44100;
      this.state = 'running';
      this.destination = new AudioNode(this);
      this.destination.isDestination = true;
      log.contexts.push(this);
    }
    createOscillator() { return new OscillatorNode(this); }
    createGain() { return new GainNode(this); }
    createDynamicsCompressor() { return new AudioNode(this); }
    createBiquadFilter() { const node = new AudioNode(this); node.frequency = new AudioParam(350); node.Q = new AudioParam(1); node.gain = new AudioParam(0); return node; }
    resume() { this.state = 'running'; return Promise.resolve(); }
    suspend() { this.state = 'suspended'; return Promise.resolve(); }
    close() { this.state = 'closed'; return Promise.resolve(); }
  }

  Object.assign(window, { AudioContext, webkitAudioContext: AudioContext, OscillatorNode, GainNode, AudioParam, AudioNode });
  return { log, GainNode };
}

/** The stand-in's handle for a test: `install(window)` in the page's setup, then `log`
 * ({contexts, oscillators, gains}, the page's own arrays) and the readings below. */
export function fakeAudio() {
  const audio = {
    log: null,
    GainNode: null,
    install(window) { Object.assign(audio, pageStub(window, webAudio)); },
    reachesDestination, gainsOf, started, sounding,
  };

  /** Whether `node`'s outputs lead to its context's destination. */
  function reachesDestination(node, seen = new Set()) {
    if (!node || seen.has(node)) return false;
    seen.add(node);
    if (node.isDestination) return true;
    return [...(node.outputs || [])].some((next) => reachesDestination(next, seen));
  }

  /** The gain nodes between an oscillator and the destination. */
  function gainsOf(oscillator) {
    const found = [];
    const walk = (node, seen = new Set()) => {
      if (!node || seen.has(node)) return;
      seen.add(node);
      if (node instanceof audio.GainNode) found.push(node);
      for (const next of [...(node.outputs || [])]) walk(next, seen);
    };
    walk(oscillator);
    return found;
  }

  // The page's arrays are copied before they are searched: no function of this realm is
  // handed to the page's Array methods.
  // A released note is stopped, or fading out: a gain on its way to the destination has a
  // ramp to (near) silence scheduled (the oscillator may be stopped later, by a timer).
  function fading(osc) {
    return gainsOf(osc).some((gain) => [...gain.gain.events].some((e) => ['exponential', 'linear', 'target'].includes(e.kind) && e.value <= 0.01));
  }
  function started() { return [...audio.log.oscillators].filter((osc) => osc.starts.length > 0); }
  function sounding() { return started().filter((osc) => osc.stops.length === 0 && !fading(osc)); }

  return audio;
}
