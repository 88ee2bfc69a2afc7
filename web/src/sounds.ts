// Sounds of the game page, synthesised (no files to load): a stone placed, your turn, low
// time. Which sounds an update calls for is a pure function, tested on its own.

export type SoundKind = 'stone' | 'your-turn' | 'low-time';

/** What changed between two moments of a game, as far as sounds go. */
export interface SoundMoment {
  seq: number;
  myTurn: boolean;
  /** Seconds left on the running clock, when it is mine. */
  mySecondsLeft: number | null;
}

/** The sounds for going from `before` to `after` (new actions, a turn that became mine, the
 *  clock crossing 10 s on my turn). */
export function soundsFor(before: SoundMoment, after: SoundMoment): SoundKind[] {
  const out: SoundKind[] = [];
  if (after.seq > before.seq) out.push('stone');
  if (after.myTurn && !before.myTurn) out.push('your-turn');
  const low = (s: number | null) => s !== null && s <= 10;
  if (after.myTurn && low(after.mySecondsLeft) && !(before.myTurn && low(before.mySecondsLeft))) out.push('low-time');
  return out;
}

let audio: AudioContext | null = null;

/** Plays a sound (quietly; nothing when the browser has no audio or blocks it). */
export function play(kind: SoundKind): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    const tone = (freq: number, start: number, length: number, volume: number) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      osc.type = kind === 'stone' ? 'triangle' : 'sine';
      gain.gain.setValueAtTime(volume, ctx.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + start);
      osc.stop(ctx.currentTime + start + length);
    };
    if (kind === 'stone') tone(220, 0, 0.08, 0.25);
    else if (kind === 'your-turn') {
      tone(660, 0, 0.12, 0.12);
      tone(880, 0.12, 0.15, 0.12);
    } else tone(440, 0, 0.3, 0.15);
  } catch {
    // No audio here: silence.
  }
}
