// Usage: node scripts/bot-turn-times.mjs besiege square:13 1,2,3 8 (after `cargo build -p gobeyond`).
// Times bot turns on the real debug server: a game of two bots at one level, watched by polling.
// Each level gets a server of its own: a game goes on after it is measured, and bot-only games
// share one search permit on a 2-core machine, so an earlier game would slow the next one.
import { startServer } from '../web/e2e/harness.mjs';
const [rules, map, levelsArg, turnsArg] = process.argv.slice(2);

async function timeLevel(level) {
  const server = await startServer();
  try {
    const guest = await fetch(`${server.url}/api/guest`, { method: 'POST' });
    const cookie = guest.headers.get('set-cookie')?.split(';')[0] ?? '';
    const call = async (method, path, body) => (await fetch(`${server.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })).json();
    const r = await call('POST', '/api/games', { rules, map, players: 2, seats: [{ kind: 'bot', level }, { kind: 'bot', level }] });
    const id = r.game?.id ?? r.id;
    if (id === undefined) throw new Error(`the game was not created: ${JSON.stringify(r)}`);
    let last = null, since = Date.now();
    const turns = [];
    const want = Number(turnsArg);
    const t0 = Date.now();
    while (turns.length < want && Date.now() - t0 < 300_000) {
      const info = await call('GET', `/api/games/${id}`);
      const who = JSON.stringify(info.waiting_for);
      if (info.status === 'finished') break;
      if (who !== last) {
        if (last !== null) turns.push(Date.now() - since);
        last = who; since = Date.now();
      }
      await new Promise((res) => setTimeout(res, 20));
    }
    return turns;
  } finally {
    await server.stop();
  }
}

for (const level of levelsArg.split(',').map(Number)) {
  const turns = await timeLevel(level);
  const s = turns.slice(2); // the pie and the choice aside
  s.sort((a, b) => a - b);
  console.log(`${rules} ${map} level ${level}: ${s.length} turns, median ${s[s.length >> 1]} ms, max ${s[s.length - 1]} ms (in order: ${turns.slice(2).join(', ')})`);
}
