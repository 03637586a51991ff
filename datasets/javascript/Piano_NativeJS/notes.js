// One octave from middle C. freq is in Hz, key is the computer key that plays it.
var NOTES = [
  { name: 'C4',  freq: 261.63, key: 'a', black: false },
  { name: 'C#4', freq: 277.18, key: 'w', black: true },
  { name: 'D4',  freq: 293.66, key: 's', black: false },
  { name: 'D#4', freq: 311.13, key: 'e', black: true },
  { name: 'E4',  freq: 329.63, key: 'd', black: false },
  { name: 'F4',  freq: 349.23, key: 'f', black: false },
  { name: 'F#4', freq: 369.99, key: 't', black: true },
  { name: 'G4',  freq: 392.00, key: 'g', black: false },
  { name: 'G#4', freq: 415.30, key: 'y', black: true },
  { name: 'A4',  freq: 440.00, key: 'h', black: false },
  { name: 'A#4', freq: 466.16, key: 'u', black: true },
  { name: 'B4',  freq: 493.88, key: 'j', black: false },
  { name: 'C5',  freq: 523.25, key: 'k', black: false }
];
