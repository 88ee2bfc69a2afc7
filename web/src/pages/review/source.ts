// Where the page's tree comes from: the server's review tree (docs/api.md, "Review tree"), or,
// from a server without it, the main line read from the game's record.

import type { ReviewTree } from '../../analysis_types';
import { ApiError, api } from '../../api';
import type { RecordedAction } from '../../types';

export async function loadTree(id: number): Promise<ReviewTree> {
  try {
    return await api.tree(id);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404 || /game/i.test(e.message)) throw e;
  }
  const record = await api.record(id);
  return {
    total: record.actions.length,
    moves: record.actions.map((a, at) => ({ at, player: a.player, input: a as unknown as RecordedAction, move_number: at + 1, at_ms: null })),
    variations: [],
    comments: [],
    may_edit: false,
    why_not: 'This server keeps no variations or comments.',
  };
}
