// Shishi's board page: draws the state the server sends (GET /api/games/{id} and the
// event stream /api/games/{id}/events) and turns clicks into the moves the server lists as
// legal. The page holds no rules of its own: every legal move, roll and card comes from the
// server (docs/SERVE.md).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const RANKS = "abcdefghijkl";

// Kanji per game; a piece not listed is drawn with its letter.
const SHOGI_KANJI = {
  K: "玉", R: "飛", B: "角", G: "金", S: "銀", N: "桂", L: "香", P: "歩",
  "+R": "龍", "+B": "馬", "+S": "全", "+N": "圭", "+L": "杏", "+P": "と",
};
const CHU_KANJI = {
  K: "玉", E: "酔", "+E": "太", G: "金", "+G": "飛", S: "銀", "+S": "竪", C: "銅", "+C": "横",
  F: "豹", "+F": "角", T: "虎", "+T": "鹿", I: "仲", "+I": "象", P: "歩", "+P": "と",
  L: "香", "+L": "駒", A: "反", "+A": "鯨", M: "横", "+M": "猪", V: "竪", "+V": "牛",
  B: "角", "+B": "馬", R: "飛", "+R": "龍", H: "馬", "+H": "鷹", D: "龍", "+D": "鷲",
  O: "麒", "+O": "獅", X: "鳳", "+X": "奔", Q: "奔", N: "獅",
};
const KAGAMIGI_KANJI = {
  K: "玉", G: "金", S: "銀", N: "桂", L: "香", P: "歩", B: "角", R: "飛", X: "鳳", O: "麒",
  "+B": "馬", "+R": "龍", "+P": "と",
};
const KANJI = {
  shogi: SHOGI_KANJI, shogammon: SHOGI_KANJI, madness: SHOGI_KANJI, minishogi: SHOGI_KANJI,
  chushogi: CHU_KANJI, chukagamigi: KAGAMIGI_KANJI,
};

const $ = (id) => document.getElementById(id);
let game = null;        // the last state received
let events = null;      // the EventSource of the game
let selection = null;   // {from} or {drop}, with {mid} after a Lion's first step
let pendingChoice = null;

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// --- moves as the server writes them ---------------------------------------------------

function parseMove(text) {
  let m = text.match(/^(\d{1,2}[a-l])(\d{1,2}[a-l])(\d{1,2}[a-l])?(\+)?$/);
  if (m) {
    return m[3]
      ? { text, from: m[1], mid: m[2], to: m[3], promo: !!m[4] }
      : { text, from: m[1], to: m[2], promo: !!m[4] };
  }
  m = text.match(/^([A-Z])\*(\d{1,2}[a-l])$/);
  if (m) return { text, drop: m[1], to: m[2] };
  return { text, special: true };
}

function squareName(rank, col) {
  return `${game.files - col}${RANKS[rank]}`;
}

function legalMoves() {
  return game && game.your_turn ? game.legal.map(parseMove) : [];
}

// --- drawing -----------------------------------------------------------------------------

function pieceLabel(piece) {
  if ($("style").value === "kanji") {
    const table = KANJI[game.variant] || {};
    if (table[piece]) return table[piece];
  }
  return piece;
}

// One piece as a shogi piece shape pointing at the opponent; `scale` shrinks it in a stack.
function drawPiece(svg, cx, cy, size, piece, side, scale) {
  const flipped = (side === "gote") !== (game.viewer === "gote");
  const g = el("g", { transform: `translate(${cx},${cy}) scale(${scale})${flipped ? " rotate(180)" : ""}`, "pointer-events": "none", class: "piece" }, svg);
  const w = size * 0.42, h = size * 0.46;
  el("path", {
    d: `M0,${-h} L${w * 0.8},${-h * 0.6} L${w},${h} L${-w},${h} L${-w * 0.8},${-h * 0.6} Z`,
    fill: "#f7e3b5", stroke: "#6b4f2a", "stroke-width": 1.2,
  }, g);
  const label = pieceLabel(piece.piece);
  const promoted = piece.piece.startsWith("+");
  const text = el("text", {
    x: 0, y: size * 0.16, "text-anchor": "middle",
    "font-size": label.length > 1 ? size * 0.34 : size * 0.5,
    fill: promoted ? "#c0392b" : "#222", "font-weight": "bold",
  }, g);
  text.textContent = label;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const files = game.files, ranks = game.ranks;
  const cell = files > 9 ? 42 : 54;
  const margin = 22;
  const width = files * cell + margin * 2, height = ranks * cell + margin * 2;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const flip = game.viewer === "gote";
  const at = (rank, col) => {
    const r = flip ? ranks - 1 - rank : rank, c = flip ? files - 1 - col : col;
    return [margin + c * cell, margin + r * cell];
  };
  el("rect", { x: margin, y: margin, width: files * cell, height: ranks * cell, fill: "#e9c98b", stroke: "#3b2f23", "stroke-width": 2, "pointer-events": "none" }, svg);
  const moves = legalMoves();
  const targets = targetSquares(moves);
  const sources = new Set(moves.filter((m) => m.from).map((m) => m.from));
  const last = lastMoveSquares();
  const winner = game.result && game.result.winner;
  const loser = winner ? (winner === "sente" ? "gote" : "sente") : null;
  for (let rank = 0; rank < ranks; rank++) {
    for (let col = 0; col < files; col++) {
      const name = squareName(rank, col);
      const [x, y] = at(rank, col);
      let fill = "none";
      if (last.has(name)) fill = "rgba(255, 200, 60, 0.45)";
      if (game.variant === "madness" && name === "5e") fill = "rgba(160, 60, 200, 0.25)";
      if (selection && (selection.from === name || selection.mid === name)) fill = "rgba(46, 134, 222, 0.45)";
      const rect = el("rect", { x, y, width: cell, height: cell, fill, stroke: "#5a4630", "stroke-width": 0.8, "data-square": name, "pointer-events": "all" }, svg);
      rect.addEventListener("click", () => clickSquare(name));
      if (game.variant === "madness" && name === "5e") {
        el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.44, fill: "none", stroke: "#7d3c98", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none" }, svg);
      }
      const stack = game.squares[rank][col];
      if (stack.length === 1) {
        drawPiece(svg, x + cell / 2, y + cell / 2, cell, stack[0], stack[0].side, 1);
      } else if (stack.length === 2) {
        // A Shogammon point: the lower piece behind (up and left), the upper one, which is
        // the one that moves, in front (down and right), both labels in sight.
        drawPiece(svg, x + cell * 0.32, y + cell * 0.32, cell, stack[0], stack[0].side, 0.56);
        drawPiece(svg, x + cell * 0.68, y + cell * 0.68, cell, stack[1], stack[1].side, 0.56);
      }
      if (loser && stack.some((p) => p.piece === "K" && p.side === loser)) {
        // The king of the side that lost (the Madness leaves a king its effect took in place).
        el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.47, fill: "none", stroke: "#c0392b", "stroke-width": 3, "pointer-events": "none", class: "lost-king" }, svg);
      }
      if (targets.has(name)) {
        el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.16, fill: "rgba(39, 174, 96, 0.75)", "pointer-events": "none", class: "target" }, svg);
      } else if (!selection && sources.has(name)) {
        el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: "rgba(46,134,222,0.35)", "stroke-width": 1.5, "pointer-events": "none" }, svg);
      }
    }
  }
  // Star points: the corners of the central area.
  const stars = { 9: [3, 6], 12: [4, 8] }[files] || [];
  for (const r of stars) for (const c of stars) {
    el("circle", { cx: margin + c * cell, cy: margin + r * cell, r: 3, fill: "#3b2f23", "pointer-events": "none" }, svg);
  }
  // Coordinates: files over the columns, ranks beside the rows.
  for (let col = 0; col < files; col++) {
    const [x] = at(0, col);
    const t = el("text", { x: x + cell / 2, y: margin - 6, "text-anchor": "middle", "font-size": 12 }, svg);
    t.textContent = files - col;
  }
  for (let rank = 0; rank < ranks; rank++) {
    const [, y] = at(rank, 0);
    const t = el("text", { x: width - margin + 6, y: y + cell / 2 + 4, "font-size": 12 }, svg);
    t.textContent = RANKS[rank];
  }
}

function lastMoveSquares() {
  const squares = new Set();
  for (let i = game.moves.length - 1; i >= 0; i--) {
    const m = parseMove(game.moves[i].text);
    if (m.to) {
      for (const s of [m.from, m.mid, m.to]) if (s) squares.add(s);
      break;
    }
  }
  return squares;
}

// The squares a click may go to now.
function targetSquares(moves) {
  const targets = new Set();
  if (!selection) return targets;
  if (selection.drop) {
    for (const m of moves) if (m.drop === selection.drop) targets.add(m.to);
    return targets;
  }
  for (const m of moves) {
    if (m.from !== selection.from) continue;
    if (selection.mid) {
      if (m.mid === selection.mid) targets.add(m.to);
      if (!m.mid && m.to === selection.mid) targets.add(m.to);
    } else {
      targets.add(m.mid || m.to);
    }
  }
  return targets;
}

function drawHands() {
  const top = game.viewer === "gote" ? "sente" : "gote";
  const bottom = top === "sente" ? "gote" : "sente";
  drawHand($("hand-top"), top);
  drawHand($("hand-bottom"), bottom);
}

function drawHand(box, side) {
  box.replaceChildren();
  const who = document.createElement("span");
  who.className = "who";
  const you = game.person === side ? " (you)" : "";
  who.textContent = (side === "sente" ? "☗ Sente" : "☖ Gote") + you;
  box.appendChild(who);
  if (!game.hands) {
    const none = document.createElement("span");
    none.className = "empty";
    none.textContent = "no hand in this game";
    box.appendChild(none);
    return;
  }
  const hand = game.hands[side === "sente" ? 0 : 1];
  if (hand.length === 0) {
    const none = document.createElement("span");
    none.className = "empty";
    none.textContent = "hand empty";
    box.appendChild(none);
  }
  const drops = new Set(legalMoves().filter((m) => m.drop).map((m) => m.drop));
  for (const [letter, count] of hand) {
    const piece = document.createElement("span");
    piece.className = "piece";
    piece.dataset.piece = letter;
    piece.textContent = pieceLabel(letter);
    if (count > 1) {
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = `×${count}`;
      piece.appendChild(c);
    }
    if (game.person === side && drops.has(letter)) {
      piece.classList.add("can-drop");
      if (selection && selection.drop === letter) piece.classList.add("selected");
      piece.addEventListener("click", () => {
        selection = selection && selection.drop === letter ? null : { drop: letter };
        render();
      });
    }
    box.appendChild(piece);
  }
  if (game.cards) drawCardsBeside(box, side);
}

// The Madness cards beside each hand: the viewer's face up, the opponent's face down.
function drawCardsBeside(box, side) {
  const svg = el("svg", { width: 34, height: 44, class: "card", "data-side": side });
  const mine = side === game.viewer;
  const value = mine ? game.cards.own : game.cards.opponent_located;
  el("rect", { x: 2, y: 2, width: 30, height: 40, rx: 4, fill: value ? "#ffffff" : "#7d3c98", stroke: "#3b2f23" }, svg);
  if (value) {
    const t = el("text", { x: 17, y: 29, "text-anchor": "middle", "font-size": 18, "font-weight": "bold" }, svg);
    t.textContent = value;
  } else {
    el("path", { d: "M8,8 L26,36 M26,8 L8,36", stroke: "#d2b4de", "stroke-width": 2 }, svg);
  }
  const label = document.createElement("span");
  label.className = "count";
  label.textContent = mine ? "your card" : value ? "card (located)" : "hidden card";
  box.appendChild(svg);
  box.appendChild(label);
}

// A die with pips (1–6), or a d10 drawn as a kite with its number.
function drawDie(parent, value, used) {
  const svg = el("svg", { width: 40, height: 40, class: "die", "data-value": value }, parent);
  el("rect", { x: 2, y: 2, width: 36, height: 36, rx: 6, fill: used ? "#ccc" : "#fff", stroke: "#222", "stroke-width": 1.5 }, svg);
  const pips = {
    1: [[20, 20]], 2: [[11, 11], [29, 29]], 3: [[11, 11], [20, 20], [29, 29]],
    4: [[11, 11], [29, 11], [11, 29], [29, 29]], 5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
    6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]],
  }[value] || [];
  for (const [x, y] of pips) el("circle", { cx: x, cy: y, r: 3.6, fill: used ? "#777" : "#222" }, svg);
}

function drawD10(parent, value) {
  const svg = el("svg", { width: 40, height: 44, class: "die d10", "data-value": value }, parent);
  el("path", { d: "M20,2 L38,18 L20,42 L2,18 Z", fill: "#fff", stroke: "#222", "stroke-width": 1.5 }, svg);
  const t = el("text", { x: 20, y: 25, "text-anchor": "middle", "font-size": 13, "font-weight": "bold" }, svg);
  t.textContent = value;
}

function drawChance() {
  const box = $("chance");
  box.replaceChildren();
  if (game.dice) {
    const { rolled, left } = game.dice;
    const remaining = [...left];
    for (const d of rolled) {
      const i = remaining.indexOf(d);
      drawDie(box, d, i < 0);
      if (i >= 0) remaining.splice(i, 1);
    }
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = rolled.length
      ? `Dice ${rolled.join("-")}; to use: ${left.join(", ") || "none"}. Table ${game.dice.table}.`
      : `Dice not rolled yet. Table ${game.dice.table}.`;
    box.appendChild(note);
  }
  if (game.cards) {
    const c = game.cards;
    if (c.last_roll) drawD10(box, c.last_roll);
    const note = document.createElement("div");
    note.className = "note";
    const discards = c.discards.length ? c.discards.join(" ") : "none";
    note.textContent = `Deck: ${c.pile} cards. Discards (${c.discards.length}): ${discards}. ${c.last_roll ? `Last d10: ${c.last_roll}. ` : ""}Phase: ${c.phase}.`;
    box.appendChild(note);
  }
}

const SPECIAL_LABELS = {
  pass: "Pass (the die is lost)",
  roll: "Roll the d10",
  "mad+": "Promote the mad piece",
  "mad=": "Do not promote",
};

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  for (const m of legalMoves().filter((m) => m.special)) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.move = m.text;
    b.textContent = SPECIAL_LABELS[m.text] || (m.text.startsWith("c:") ? `Play card ${m.text.slice(2)}` : m.text);
    b.addEventListener("click", () => send(m.text));
    box.appendChild(b);
  }
}

function drawStatus() {
  const status = $("status");
  status.classList.toggle("over", !!game.result);
  const name = { shogi: "Shogi", chushogi: "Chu Shogi", chukagamigi: "Chu Kagamigi", shogammon: "Shogammon", madness: "Central Madness", minishogi: "Minishogi" }[game.variant];
  let text;
  const failed = !!(game.result && game.result.error);
  if (failed) {
    // Not a result of the game: the engine failed, and the server ended this game only.
    text = `Stopped by an error of the engine: ${game.result.error}.`;
    if (game.mode === "play") text += " Undo takes your last move back and lets the engine try again.";
  } else if (game.result) {
    const w = game.result.winner;
    text = `${w ? `${w === "sente" ? "Sente" : "Gote"} wins` : "Draw"} (${game.result.reason}).`;
    if (game.person && w) text += w === game.person ? " You won!" : " You lost.";
    if (game.seed !== null && game.seed !== undefined) text += ` Seed ${game.seed}.`;
  } else if (game.your_turn) {
    text = "Your move.";
  } else if (game.thinking) {
    text = `Shishi is thinking for ${game.thinking}…`;
  } else {
    text = `${game.to_act} to act.`;
  }
  status.textContent = `${name}: ${text}`;
  status.classList.toggle("failed", failed);
  status.dataset.result = failed ? "error" : game.result ? game.result.winner || "draw" : "";
  $("undo").disabled = game.mode !== "play";
  $("resign").disabled = game.mode !== "play" || !!game.result;
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  for (const m of game.moves) {
    const li = document.createElement("li");
    li.textContent = m.by === "chance" ? `${m.text} (drawn)` : `${m.by === "sente" ? "☗" : "☖"} ${m.text}`;
    li.className = m.by;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

function drawAnalysis() {
  const box = $("analysis");
  const a = game.analysis;
  box.textContent = a ? `${a.side}: depth ${a.depth}, value ${a.value}\n${a.pv.join(" ")}` : "—";
}

function render() {
  if (!game) return;
  drawBoard();
  drawHands();
  drawChance();
  drawActions();
  drawStatus();
  drawMoves();
  drawAnalysis();
  $("export").value = `${game.sfen}\n${game.record}`;
  document.body.dataset.version = game.version;
  document.body.dataset.yourTurn = game.your_turn;
}

// --- input --------------------------------------------------------------------------------

function clickSquare(name) {
  const moves = legalMoves();
  if (!moves.length) return;
  if (selection && selection.drop) {
    const drops = moves.filter((m) => m.drop === selection.drop && m.to === name);
    selection = null;
    if (drops.length) return choose(drops);
    return render();
  }
  if (selection && selection.mid) {
    const { from, mid } = selection;
    const done = moves.filter((m) => m.from === from && (m.mid === mid ? m.to === name : !m.mid && m.to === mid && name === mid));
    selection = null;
    if (done.length) return choose(done);
    return render();
  }
  if (selection && selection.from) {
    const from = selection.from;
    const single = moves.filter((m) => m.from === from && !m.mid && m.to === name);
    const double = moves.filter((m) => m.from === from && m.mid === name);
    if (double.length) {
      // A Lion's first step: the second click picks where it ends (here again to stop).
      selection = { from, mid: name };
      return render();
    }
    if (single.length) {
      selection = null;
      return choose(single);
    }
  }
  selection = moves.some((m) => m.from === name) && !(selection && selection.from === name) ? { from: name } : null;
  render();
}

// One move, or the promotion question when the same move may promote or not.
function choose(list) {
  if (list.length === 1) return send(list[0].text);
  const yes = list.find((m) => m.promo), no = list.find((m) => !m.promo);
  if (yes && no) {
    pendingChoice = { yes: yes.text, no: no.text };
    $("promotion").hidden = false;
    return;
  }
  send(list[0].text);
}

// Takes a state answered to a request, unless the event stream has already brought a
// newer one of the same game (the engine may answer before the request's answer arrives).
function accept(state) {
  if (!game || state.id !== game.id || state.version >= game.version) game = state;
}

async function send(text) {
  selection = null;
  try {
    accept(await api("POST", `/api/games/${game.id}/move`, { move: text }));
    showError("");
  } catch (e) {
    showError(`Move ${text} refused: ${e.message}`);
  }
  render();
}

function settings() {
  const variant = $("variant").value;
  const body = {
    variant,
    mode: $("mode").value,
    side: $("side").value,
    movetime_ms: Number($("movetime").value),
  };
  if (variant === "chushogi") body.chu_rules = $("chu-rules").value;
  if (variant === "shogammon") body.dice = $("dice").value;
  return body;
}

async function newGame(sfen) {
  const body = settings();
  if (sfen) body.sfen = sfen;
  try {
    const state = await api("POST", "/api/games", body);
    showError("");
    open(state);
  } catch (e) {
    showError(`Cannot start the game: ${e.message}`);
  }
}

function open(state) {
  if (game && game.id !== state.id) api("DELETE", `/api/games/${game.id}`).catch(() => {});
  game = state;
  selection = null;
  location.hash = state.id;
  if (events) events.close();
  events = new EventSource(`/api/games/${state.id}/events`);
  events.onmessage = (e) => {
    const next = JSON.parse(e.data);
    // Older or already drawn states are dropped (an answer to a request may come first).
    if (!game || next.id !== game.id || next.version <= game.version) return;
    selection = null;
    game = next;
    render();
  };
  // The stream that was closed, not whichever is current when the event arrives.
  events.addEventListener("closed", (e) => e.target.close());
  render();
}

function showOptions() {
  const v = $("variant").value;
  $("chu-rules-box").hidden = v !== "chushogi";
  $("dice-box").hidden = v !== "shogammon";
  $("side-label").textContent = $("mode").value === "watch" ? "View of" : "Your side";
}

async function copy(text) {
  $("export").value = text;
  $("export").select();
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    document.execCommand("copy");
  }
}

function start() {
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("variant").addEventListener("change", showOptions);
  $("mode").addEventListener("change", showOptions);
  $("style").addEventListener("change", render);
  $("undo").addEventListener("click", async () => {
    try { accept(await api("POST", `/api/games/${game.id}/undo`)); showError(""); } catch (e) { showError(e.message); }
    render();
  });
  $("resign").addEventListener("click", async () => {
    try { accept(await api("POST", `/api/games/${game.id}/resign`)); showError(""); } catch (e) { showError(e.message); }
    render();
  });
  $("copy-sfen").addEventListener("click", () => game && copy(game.sfen));
  $("copy-record").addEventListener("click", () => game && copy(game.record));
  $("load").addEventListener("click", () => newGame($("load-sfen").value.trim()));
  $("promote-yes").addEventListener("click", () => { $("promotion").hidden = true; send(pendingChoice.yes); });
  $("promote-no").addEventListener("click", () => { $("promotion").hidden = true; send(pendingChoice.no); });
  showOptions();
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{32}$/.test(id)) {
    api("GET", `/api/games/${id}`).then((state) => {
      $("variant").value = state.variant;
      showOptions();
      open(state);
    }).catch(() => newGame());
  } else {
    newGame();
  }
}

start();
