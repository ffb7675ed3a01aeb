// A bot from outside that plays a random legal move, in JavaScript for Node.js (the global
// WebSocket: Node 22+, or Node 20 with --experimental-websocket; no npm packages).
// docs/server.md, "Bots from outside".
//
//   node --experimental-websocket examples/bots/random_bot.mjs ws://127.0.0.1:8000/ws --token TOKEN --ladder
//   node examples/bots/random_bot.mjs ws://127.0.0.1:8000/ws --token TOKEN --room ABC123 --player 2
//
// The token is the one `skitgubbe bot add NAME` printed (or set SKITGUBBE_BOT_TOKEN). With --ladder
// it waits in the ladder's queue and plays one match; with --room it plays --deals deals (default 1).

const args = process.argv.slice(2);
const url = args[0];
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const token = opt("--token") ?? process.env.SKITGUBBE_BOT_TOKEN;
const ladder = args.includes("--ladder");
const room = opt("--room");
const deals = Number(opt("--deals") ?? 1);
if (!url || !token || ladder === (room !== undefined) || typeof WebSocket === "undefined") {
  console.error("usage: random_bot.mjs WS_URL --token TOKEN (--ladder | --room CODE --player N) [--deals N]"
    + (typeof WebSocket === "undefined" ? "\n(this Node has no WebSocket: run it with --experimental-websocket)" : ""));
  process.exit(2);
}
const hello = { type: "hello", bot_token: token };
if (ladder) hello.queue = "ladder"; else Object.assign(hello, { room, player: Number(opt("--player")) });

let n = 0;
let moved = 0;
let actedAt = -1; // the deal's move count when this bot last moved
const over = new Set();
// the query names the table (or the ladder) for a proxy routing by room; the server reads the hello
const ws = new WebSocket(url + (ladder ? "?queue=ladder" : `?room=${room}`));

function finish() {
  console.log(`moves sent: ${moved}`);
  ws.close();
  process.exitCode = moved ? 0 : 1;
}

ws.addEventListener("open", () => ws.send(JSON.stringify(hello)));
ws.addEventListener("close", () => { if (process.exitCode === undefined) finish(); });
ws.addEventListener("error", (e) => { console.error("websocket error", e.message ?? ""); process.exitCode = 1; });
ws.addEventListener("message", (event) => {
  const msg = JSON.parse(event.data);
  if (msg.type === "error") {
    console.error("refused:", msg.code, msg.message);
    if (["bad-token", "not-invited", "no-room", "bad-field", "full"].includes(msg.code)) finish();
    // a refused move (the table moved on meanwhile): wait for the next position, not resend
  } else if (msg.type === "queued" || msg.type === "seated") {
    console.error(msg.type, msg.room ?? "", msg.player ?? "");
  } else if (msg.type === "ladder-over") {
    finish();
  } else if (msg.type === "sync" || msg.type === "state") {
    const { table, me } = msg;
    if (table.status === "over") {
      over.add(table.game);
      if (!ladder && over.size >= deals) finish();
      return;
    }
    const seq = table.public ? table.public.seq : -1;
    if (me && me.legal.length && seq !== actedAt) {
      actedAt = seq;
      const move = me.legal[Math.floor(Math.random() * me.legal.length)].move;
      ws.send(JSON.stringify({ type: "act", n: ++n, move }));
      moved += 1;
    }
  }
});
