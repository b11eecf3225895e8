/* An optional sound (Options → Sound, off by default): a soft tick for each move played and
 * a rising chord for a win, made on the spot with the Web Audio API (no sound file). */

import { state } from "./state.js";

let context = null;

/** The notes of each sound: [frequency in Hz, start in s, length in s]. */
const NOTES = {
  move: [[660, 0, 0.05]],
  win: [[523, 0, 0.18], [659, 0.12, 0.18], [784, 0.24, 0.3]],
};

/** Play the sound ``kind`` ("move" or "win") when the player has turned sound on. */
export function playSound(kind) {
  if (!state.settings.sound) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  context = context || new Audio();
  const now = context.currentTime;
  for (const [frequency, start, length] of NOTES[kind]) {
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.08, now + start);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    tone.connect(volume).connect(context.destination);
    tone.start(now + start);
    tone.stop(now + start + length);
  }
}
