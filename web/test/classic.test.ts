// Classic Go in the client (issue 41): territory and dead stones drawn from the server's count,
// the count's table, the review's words, and the log's captures after a reload (a sync).
import { describe, expect, it } from 'vitest';
import { GameModel } from '../src/model';
import type { ClassicEvent, ClassicState } from '../src/protocol';
import { classic, countTable } from '../src/systems/classic';
import type { GameInfo, GameState } from '../src/types';
import { gridMap } from './fixtures';

const map = gridMap(3, 3);
const viewer = { picked: null, atari: false, hover: null };
const names = { player: (p: number) => ['Black', 'White'][p], label: (n: number) => map.labels[n] };

/** 3×3, counted: Black on A3 and B3, White's C1 dead; the rest Black's territory. */
function counted(status: 'scoring' | 'finished'): ClassicState {
  const board: (number | null)[] = [0, 0, null, null, null, null, null, null, 1];
  const territory = [null, null, 0, 0, 0, 0, 0, 0, 0];
  return {
    map: { name: 'm', spec: 'rect:3x3', nodes: 9 }, rules: { system: 'classic' }, status, to_move: null,
    moves_played: 5, consecutive_passes: 2, board, ownership: board, dead: [8], accepted: [], ko: null, hash: '', outcome: null,
    territory, move_number: 5, result: status === 'finished' ? 'B+1.5' : null,
    players: [
      { player: 0, name: '', color: 'Black', stones: ['A3', 'B3'], prisoners: 0, score: 9, resigned: false,
        count: { territory: 7, stones: 2, komi: 0, total: 9 } },
      { player: 1, name: '', color: 'White', stones: ['C1'], prisoners: 0, score: 7.5, resigned: false,
        count: { territory: 0, stones: 0, komi: 7.5, total: 7.5 } },
    ],
  };
}

describe('classic Go counted', () => {
  it('marks territory with squares on empty points and crosses and fades dead stones, in the phase and at the end', () => {
    for (const status of ['scoring', 'finished'] as const) {
      const d = classic.decorate(counted(status), map, viewer);
      expect([...(d.nodes?.entries() ?? [])].map(([n, x]) => [n, x.territory])).toEqual([2, 3, 4, 5, 6, 7].map((n) => [n, 0]));
      expect(d.stones?.get(8)).toEqual({ crossed: true, faded: true });
    }
    // During play nothing is counted: no marks.
    const s = { ...counted('scoring'), status: 'playing', territory: [], dead: [] };
    expect(classic.decorate(s, map, viewer)).toEqual({});
  });

  it('shows the score column only once the position is counted', () => {
    // (The table itself is a DOM element: the browser test reads it.)
    expect(countTable({ ...counted('scoring'), players: [] }, names)).toBeNull();
    const score = classic.columns.find((c) => c.header === 'Score');
    expect(score?.shown?.(counted('finished'))).toBe(true);
    const playing = counted('scoring');
    for (const p of playing.players) p.count = null;
    expect(score?.shown?.(playing)).toBe(false);
  });

  it('says moves as Go players do in the review', () => {
    const line = classic.reviewLine;
    expect(line?.({ player: 1, type: 'place', at: 'E4' }, names)).toBe('White E4');
    expect(line?.({ player: 0, type: 'pass' }, names)).toBe('Black passes');
    expect(line?.({ player: 0, type: 'accept' }, names)).toBe('Black accepts the dead stones');
    expect(line?.({ player: 0, type: 'dead', nodes: [8], proposed: true }, names)).toBe('Proposed: 1 dead stone');
    expect(classic.moveNumber?.(counted('finished'))).toBe(5);
  });

  it('keeps "and captured N stones" in the log rebuilt by a sync (a reload)', () => {
    const m = new GameModel(1, map);
    const info = {
      id: 1, status: 'live', phase: 'playing', creator: 1, rules: { system: 'classic' }, map: { spec: 'rect:3x3' }, players: 2,
      time: { kind: 'none' }, seats: [], rated: false, seq: 2, waiting_for: [0], clock: null, outcome: null, result_text: null,
      undo: null, aborted: false, unrated: null,
    } as unknown as GameInfo;
    const events: ClassicEvent[] = [
      { event: 'placed', player: 0, node: 1 },
      { event: 'placed', player: 1, node: 0 },
      { event: 'captured', player: 1, owner: 0, nodes: [1] },
    ];
    const actions = [{ seq: 1, action: { player: 0, type: 'place', node: 1 } }, { seq: 2, action: { player: 1, type: 'place', node: 0 } }];
    m.apply({ type: 'sync', game: 1, seq: 2, since: 0, actions, info, state: counted('scoring') as GameState, events });
    expect(m.log.map((l) => l.text)).toEqual(['1. Black played B3', '2. White played A3 and captured 1 stone']);
  });
});
