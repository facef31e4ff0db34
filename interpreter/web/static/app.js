// The page of one seat at a rulecraft web table: it shows what the server sends for this seat's
// token (its own observation only) and sends decisions as {version, option}. Plain DOM, no library;
// every text goes in with textContent, never as HTML.
"use strict";
const token = new URLSearchParams(location.hash.slice(1)).get("t") || "";
const $ = (id) => document.getElementById(id);
let page = null;
let sending = false;

function notice(text) {
  $("notice").textContent = text || "";
  $("notice").hidden = !text;
}

function fill(list, items, make) {
  list.replaceChildren(...items.map(make));
}

function render(p) {
  page = p;
  sending = false;
  document.body.dataset.version = String(p.version);
  document.title = (p.you ? p.you + " — " : "") + p.title;
  $("title").textContent = p.title;
  $("who").textContent = p.you ? "You are " + p.you : "Spectator: you see what every seat sees";
  $("seats").textContent = "Seats: " + p.seats;
  $("view-title").textContent = p.you ? "The table, as " + p.you + " sees it" : "The table";
  fill($("view"), p.view, (line) => {
    const li = document.createElement("li");
    li.textContent = line;
    if (line.startsWith("your ") || line.includes("(you)")) li.className = "mine";
    if (line.startsWith("  ")) li.classList.add("sub");
    return li;
  });
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  fill(log, p.log, (entry) => {
    const li = document.createElement("li");
    li.textContent = entry.text;
    if (entry.decision) li.className = "decision";
    return li;
  });
  if (atEnd) log.scrollTop = log.scrollHeight;
  let status;
  if (p.stopped) status = "The game stopped: " + p.stopped;
  else if (p.over) status = "The game is over.";
  else if (p.your_turn) status = "Your turn, " + p.you + ": choose below.";
  else status = "Waiting for " + p.to_decide + "…";
  $("status").textContent = status;
  $("status").className = p.your_turn ? "turn" : "";
  $("decision").hidden = !p.your_turn;
  $("prompt").textContent = p.prompt || "";
  $("prompt").hidden = !p.prompt;
  const hadFocus = $("options").contains(document.activeElement);
  fill($("options"), p.options, (label, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.option = String(i);
    const n = document.createElement("span");
    n.className = "num";
    n.textContent = String(i + 1);
    b.append(n, document.createTextNode(" " + label));
    b.addEventListener("click", () => decide(i));
    return b;
  });
  if (p.your_turn && (hadFocus || document.activeElement === document.body)) {
    const first = $("options").querySelector("button");
    if (first) first.focus({preventScroll: true});
  }
  $("result-box").hidden = !p.over;
  $("result").textContent = p.result.concat(p.score_parts || []).join("\n");
}

async function decide(i) {
  if (!page || !page.your_turn || sending) return;
  sending = true;
  for (const b of $("options").querySelectorAll("button")) b.disabled = true;
  notice("");
  try {
    const r = await fetch("/api/decide", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-Token": token},
      body: JSON.stringify({version: page.version, option: i}),
    });
    if (!r.ok) {
      const e = await r.json().catch(() => ({error: "the table refused the decision"}));
      notice(e.error);
      sending = false;
      await refresh();
    }
  } catch (err) {
    notice("the table cannot be reached; your seat is kept: reload to try again");
    sending = false;
  }
}

async function refresh() {
  const r = await fetch("/api/page", {headers: {"X-Token": token}});
  const data = await r.json();
  if (!r.ok) { notice(data.error); return; }
  render(data);
}

document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || !page || !page.your_turn) return;
  if (ev.target instanceof HTMLInputElement) return;
  const k = Number(ev.key);
  if (Number.isInteger(k) && k >= 1 && k <= page.options.length) {
    ev.preventDefault();
    decide(k - 1);
  }
});

async function start() {
  if (!token) {
    $("status").textContent = "This page needs a seat's link (the one 'rulecraft serve' printed for you).";
    return;
  }
  const r = await fetch("/api/rules", {headers: {"X-Token": token}});
  const data = await r.json();
  if (!r.ok) { $("status").textContent = data.error; return; }
  $("rules").textContent = data.rules.join("\n");
  const source = new EventSource("/api/events?t=" + encodeURIComponent(token));
  source.onmessage = (ev) => { notice(""); render(JSON.parse(ev.data)); };
  source.onerror = () => {
    if (page && page.over) { source.close(); return; }
    notice("connection lost: reconnecting (your seat is kept)…");
  };
}

start();
