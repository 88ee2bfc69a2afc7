// How a move the computer judged is marked in the move list (the signs chess and Go players know).

import type { Mark, MoveJudgement } from '../../analysis_types';

export const MARK_SYMBOL: Record<Mark, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export const MARK_WORDS: Record<Mark, string> = { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder' };

/** The judgement of the action at index `at`, with its mark's symbol and a title in words. */
export function markOf(moves: MoveJudgement[], at: number): { symbol: string; title: string; mark: Mark } | null {
  const j = moves.find((m) => m.at === at);
  if (!j?.mark) return null;
  const lost = `lost ${Math.round(j.loss * 100)}% of the win chance` + (j.points_lost != null ? `, ${j.points_lost.toFixed(1)} points` : '');
  return { symbol: MARK_SYMBOL[j.mark], title: `${MARK_WORDS[j.mark]}: ${lost}`, mark: j.mark };
}

/** How many moves of each seat got each mark (the summary under the graph). */
export function markCounts(moves: MoveJudgement[], seats: number): Record<Mark, number>[] {
  const out = Array.from({ length: seats }, () => ({ inaccuracy: 0, mistake: 0, blunder: 0 }));
  for (const m of moves) if (m.mark && out[m.player]) out[m.player][m.mark] += 1;
  return out;
}
