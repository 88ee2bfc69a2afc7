// Usage: node scripts/bot-turn-times.mjs besiege square:13 1,2,3 8 (after `cargo build -p gobeyond`).
// Times bot turns on the real debug server: a game of two bots at one level, watched by polling.
import { startServer } from '../web/e2e/harness.mjs';
const [rules, map, levelsArg, turnsArg] = process.argv.slice(2);
const server = await startServer();
const guest = await fetch(`${server.url}/api/guest`, { method: 'POST' });
const cookie = guest.headers.get('set-cookie')?.split(';')[0] ?? '';
const call = async (method, path, body) => (await fetch(`${server.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })).json();
for (const level of levelsArg.split(',').map(Number)) {
  const r = await call('POST', '/api/games', { rules, map, players: 2, seats: [{ kind: 'bot', level }, { kind: 'bot', level }] });
  const id = r.game?.id ?? r.id;
  let last = null, since = Date.now(), turns = [];
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
  const s = turns.slice(2); // the pie's choice aside
  s.sort((a, b) => a - b);
  console.log(`${rules} ${map} level ${level}: ${s.length} turns, median ${s[s.length >> 1]} ms, max ${s[s.length - 1]} ms`);
}
await server.stop();
