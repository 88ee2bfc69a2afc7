import { describe, expect, it } from 'vitest';
import type { ClassicState, GoBeyondPlayer, GoBeyondState } from '../src/protocol';
import { classic } from '../src/systems/classic';
import { gobeyond } from '../src/systems/gobeyond';
import { gridMap } from './fixtures';

const map = gridMap(3, 3);
const viewer = { picked: null, atari: false, hover: null };

/** A classic 3×3 game in its dead-stone phase: Black on A3 and B3, White on C1. */
function scoring(): ClassicState {
  const board: (number | null)[] = [0, 0, null, null, null, null, null, null, 1];
  return {
    map: { name: 'm', spec: 'rect:3x3', nodes: 9 }, rules: { system: 'classic' }, status: 'scoring', to_move: null,
    moves_played: 5, consecutive_passes: 2, board, ownership: board, dead: [], accepted: [], ko: null, hash: '', outcome: null,
    territory: [], move_number: 5, result: null,
    players: [0, 1].map((p) => ({ player: p, name: '', color: ['Black', 'White'][p], stones: [], prisoners: 0, score: 0, count: null, resigned: false })),
  };
}

function player(p: number, surrendered: string[] | null): GoBeyondPlayer {
  return { player: p, name: '', color: ['Black', 'White'][p], stones: [], points: 200, projected: 200, status: 'playing', resigned_order: null, claimed: 0, reservation: null, surrendered };
}

describe('decisions taken together', () => {
  it('classic Go: a click marks the whole group dead, or alive again; the marked stones are crossed', () => {
    const s = scoring();
    const d = classic.decision?.(s, map);
    expect(d?.click(1, 1, new Set())).toEqual({ input: { type: 'dead', nodes: [1, 0] } });
    s.dead = [0, 1];
    expect(d?.click(0, 1, new Set())).toEqual({ input: { type: 'dead', nodes: [] } });
    expect(d?.click(4, 1, new Set())).toBeNull();
    expect([...(classic.decorate(s, map, viewer).stones?.keys() ?? [])]).toEqual([0, 1]);
    s.status = 'playing';
    expect(classic.decision?.(s, map)).toBeNull();
  });

  it('GoBeyond Clean-Up: the viewer selects own groups only; their choice and what others surrendered are crossed', () => {
    const board: (number | null)[] = [0, 0, null, null, null, null, null, null, 1];
    const s: GoBeyondState = {
      map: { name: 'm', spec: 'rect:3x3', nodes: 9 }, rules: { system: 'gobeyond' }, phase: 'clean_up', turn: 9, to_move: null,
      consecutive_passes: 3, passes_to_end: 3, players: [player(0, null), player(1, ['C1'])], nodes: board.map(() => 'disputed'),
      board, claims: board.map(() => null), reserved: board.map(() => null), awaiting_cleanup: [0], outcome: null, events: [],
    };
    const d = gobeyond.decision?.(s, map);
    expect(d?.click(0, 0, new Set())).toEqual({ selected: new Set([0, 1]) });
    expect(d?.click(8, 0, new Set())).toBeNull();
    expect(d?.click(0, 1, new Set())).toBeNull();
    const crossed = gobeyond.decorate(s, map, { ...viewer, selected: new Set([0, 1]) }).stones;
    expect([...(crossed?.entries() ?? [])].filter(([, x]) => x.crossed).map(([n]) => n).sort()).toEqual([0, 1, 8]);
  });
});
