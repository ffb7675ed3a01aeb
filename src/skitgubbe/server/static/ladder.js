// The ladder's leaderboard (/ladder): GET /api/ladder, shown as a table, refreshed every 10 seconds.
// Each entrant's last games link to their replays (/replay/ID).
import { LANGUAGES, lang, rememberLanguage, t, translatePage, useLanguage, wantedLanguage } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function row(p) {
  const tr = document.createElement("tr");
  tr.append(cell(String(p.rank), "num"));
  const name = cell(p.kind === "builtin" ? t("{name} (built-in)", { name: p.name }) : p.name);
  name.classList.add("name");
  if (p.kind === "builtin") name.classList.add("builtin");
  tr.append(name, cell(p.ordinal.toFixed(2), "num"), cell(`${p.mu.toFixed(2)} ± ${p.sigma.toFixed(2)}`, "num wide"),
    cell(String(p.games), "num"), cell(String(p.losses), "num"));
  const games = cell("", "games");
  p.last.forEach((g, i) => {
    const a = document.createElement("a");
    a.href = g.replay;
    a.textContent = g.lost ? "✗" : "✓";
    if (g.lost) a.className = "lost";
    const label = g.lost ? t("Game {n}: lost (replay)", { n: i + 1 }) : t("Game {n}: not the loser (replay)", { n: i + 1 });
    a.title = label;
    a.setAttribute("aria-label", label);
    games.append(a);
  });
  tr.append(games);
  return tr;
}

async function refresh() {
  let data;
  try {
    const r = await fetch("/api/ladder");
    if (!r.ok) throw new Error(String(r.status));
    data = await r.json();
  } catch (e) {
    $("ladder-live").textContent = t("The ladder could not be loaded; trying again.");
    return;
  }
  const c = data.config;
  $("ladder-about").textContent = t("Bots play duplicate matches of {rules} at {players} seats: one deck, dealt once for each seating. Rating is mu − 3 sigma (openskill).", { rules: c.preset, players: c.players });
  $("ladder-live").textContent = t("Queued: {queued}. Matches being played: {playing}.", { queued: data.queued, playing: data.playing });
  $("board").tBodies[0].replaceChildren(...data.players.map(row));
  $("empty").hidden = data.players.length > 0;
}

async function main() {
  await useLanguage(wantedLanguage());
  const pick = $("lang-pick");
  for (const [code, name] of Object.entries(LANGUAGES)) pick.append(new Option(name, code));
  pick.value = lang();
  pick.addEventListener("change", async () => {
    rememberLanguage(pick.value);
    await useLanguage(pick.value);
    translatePage();
    await refresh();
  });
  translatePage();
  await refresh();
  setInterval(refresh, 10000);
}

main();
