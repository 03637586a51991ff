// One octave from middle C: computer key -> note name and frequency in Hz.
// index.html has one .key element per entry, with the same data-key.
var NOTES = {
  a: { name: 'C4',  freq: 261.63 },
  w: { name: 'C#4', freq: 277.18 },
  s: { name: 'D4',  freq: 293.66 },
  e: { name: 'D#4', freq: 311.13 },
  d: { name: 'E4',  freq: 329.63 },
  f: { name: 'F4',  freq: 349.23 },
  t: { name: 'F#4', freq: 369.99 },
  g: { name: 'G4',  freq: 392.00 },
  y: { name: 'G#4', freq: 415.30 },
  h: { name: 'A4',  freq: 440.00 },
  u: { name: 'A#4', freq: 466.16 },
  j: { name: 'B4',  freq: 493.88 },
  k: { name: 'C5',  freq: 523.25 }
};
