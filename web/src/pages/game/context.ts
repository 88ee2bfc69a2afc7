// What the game page's panels share: the game, the viewer's preferences and elements, and what
// the viewer is doing (a pick, a selection, an action in flight).

import type { Channel } from '../../protocol';
import type { GameModel } from '../../model';
import type { MountedBoard } from '../../mount';
import type { Socket } from '../../socket';
import type { SoundMoment } from '../../sounds';
import type { MapView, User } from '../../types';
import type { Elements } from './elements';

const PREFS = 'gobeyond-prefs';

export interface Prefs {
  confirm: boolean;
  atari: boolean;
  sound: boolean;
  /** Node labels on maps without side coordinates. */
  labels: boolean;
}

export function loadPrefs(): Prefs {
  // On touch screens a tap is easily misplaced: confirm before placing unless switched off.
  const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  try {
    return { confirm: touch, atari: false, sound: true, labels: true, ...JSON.parse(localStorage.getItem(PREFS) ?? '{}') };
  } catch {
    return { confirm: touch, atari: false, sound: true, labels: true };
  }
}

export function savePrefs(prefs: Prefs) {
  localStorage.setItem(PREFS, JSON.stringify(prefs));
}

export interface GameContext {
  readonly id: number;
  readonly user: User;
  readonly map: MapView;
  readonly model: GameModel;
  readonly socket: Socket;
  readonly prefs: Prefs;
  readonly el: Elements;
  readonly board: MountedBoard;
  /** A node clicked once, waiting for the confirming click (confirm before placing). */
  pending: number | null;
  /** The node under the pointer. */
  hover: number | null;
  /** Nodes the viewer has chosen in a decision (Clean-Up), not sent yet. */
  selected: Set<number>;
  /** A node picked by a first click, for systems whose input takes two (Tribal Go's Move
   *  cards). */
  picked: number | null;
  /** An action is on its way: buttons wait. */
  busy: boolean;
  /** The engine's reason for the last refused action, shown until the game moves on. */
  refusal: string | null;
  /** A rematch another player offered (its link). */
  rematchOffer: HTMLElement | null;
  /** The creator's invite code, once fetched (the game page may be opened again later). */
  creatorInvite: string | null | undefined;
  /** Whether the server lets the viewer chat (players, the creator, invited spectators). */
  mayChat: boolean;
  /** Where the viewer's chat lines go (`players` or `spectators`), when they may chat. */
  chatChannel: Channel | null;
  /** When the viewer last sent a chat line (a refusal soon after is that line's). */
  chatSentAt: number | null;
  /** Pass was pressed once where a pass ends play: the next press confirms. */
  passArmed: boolean;
  /** The sequence number the armed pass was pressed at (the game moving on disarms it). */
  passArmedAt: number;
  /** Where the game stood at the last sound check. */
  heard: SoundMoment | null;
  /** The viewer's seat, if they play. */
  seat(): number | null;
  /** Whether the viewer may act now. */
  myTurn(): boolean;
  /** Sends an action (one at a time); a refusal is shown. */
  act(action: unknown): Promise<void>;
  /** Redraws the board and every panel. */
  render(): void;
}
