// The interactive board of an HTML report (viewer.hpp): the data of each game, computed here from
// the model's positions, and the one script that draws it.
#include "report/viewer.hpp"

#include <cstdio>

#include "report/board_diagram.hpp"
#include "core/stones/renju.hpp"
#include "report/format.hpp"

namespace gounki::report {

namespace {

// A JSON string, '<' as \u003c (no "</script>" can end the block early).
std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') out.append(1, '\\').append(1, ch);
        else if (ch == '\n') out += "\\n";
        else if (c < 0x20 || ch == '<' || ch == '>' || ch == '&') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += ch;
    }
    return out + "\"";
}

std::string json_strings(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + json_string(items[i]);
    return out + "]";
}

int board_size(const AnyPosition& pos) { return pos.stones() ? pos.stones()->size() : 8; }

// "White to move", "Black has won", "Draw"; stone games with captures add the stones taken.
std::string status_text(const AnyPosition& pos) {
    std::string text = outcome_text(pos.outcome(), pos.side_to_move());
    if (const stones::StonePosition* s = pos.stones(); s && s->rules().captures())
        text += " \u00b7 Captured: Black " + std::to_string(s->captured(Color::black)) + ", White " +
            std::to_string(s->captured(Color::white));
    return text;
}

// Stones count one each; a Gounki stack counts its pieces (its letters).
int piece_count(const AnyPosition& pos) {
    if (const stones::StonePosition* s = pos.stones()) return s->stone_count();
    int n = 0;
    for (const std::string& c : board_cells(pos)) n += int(c.size());
    return n;
}

// "12." for the first mover, "12..." for the other side.
std::string number_label(Color first, Color side, int number) { return std::to_string(number) + (side == first ? "." : "..."); }

// ",\"fb\":[cells]": the cells (as board_cells numbers them) of the points forbidden to Black in a
// Renju position with Black to move; "" when there are none.
std::string forbidden_json(const AnyPosition& pos) {
    const stones::StonePosition* st = pos.stones();
    if (!st) return {};
    std::string out;
    for (const auto& [p, why] : stones::forbidden_points(*st))
        out += (out.empty() ? "" : ",") + std::to_string(stones::point_file(p) + st->size() * stones::point_rank(p));
    return out.empty() ? out : ",\"fb\":[" + out + "]";
}

// The opening of a step's object, up to its last field (the caller closes it): the move, its
// number, the cells it changed, the cells to mark, the status and piece count after it, the
// record's NAGs and comments. A stone placed by the move carries `ply_number`.
std::string step_json(std::string_view move, const std::string& number, const AnyPosition& before, const AnyPosition& after,
                      int ply_number, const std::vector<int>& nags, const std::vector<std::string>& comments) {
    const std::vector<std::string> b = board_cells(before), a = board_cells(after);
    const bool stones = after.stones() != nullptr;
    std::string diff, last;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] == b[i]) continue;
        const bool placed = b[i].empty() && !a[i].empty();
        const std::string value = stones && placed ? a[i] + std::to_string(ply_number) : a[i];
        diff += (diff.empty() ? "[" : ",[") + std::to_string(i) + "," + json_string(value) + "]";
        if (!stones || placed) last += (last.empty() ? "" : ",") + std::to_string(i);
    }
    std::string nag;
    for (int n : nags) nag += nag_text(n);
    std::string out = "{\"m\":" + json_string(move) + ",\"no\":" + json_string(number) + ",\"d\":[" + diff + "],\"last\":[" +
        last + "],\"st\":" + json_string(status_text(after)) + ",\"pieces\":" + std::to_string(piece_count(after)) +
        forbidden_json(after);
    if (!nag.empty()) out += ",\"nag\":" + json_string(nag);
    if (!comments.empty()) out += ",\"c\":" + json_strings(comments);
    return out;
}

// The moves of a line from `before`, the position before ply `ply` of the game (which it replaces),
// its first move numbered `number`; each move with the lines inside it (alternatives to it).
std::string line_json(const std::string& name, const std::vector<std::string>& comments, const GameReport& g, std::size_t ply,
                      AnyPosition before, const std::vector<LineMove>& moves, int number) {
    std::string out =
        "{\"name\":" + json_string(name) + (comments.empty() ? "" : ",\"c\":" + json_strings(comments)) + ",\"moves\":[";
    const Color first = first_mover(g);
    for (std::size_t j = 0; j < moves.size(); ++j) {
        const LineMove& m = moves[j];
        out += (j ? "," : "") +
            step_json(move_text(before, m.move), number_label(first, m.side, number), before, m.after, int(ply + j + 1), m.nags,
                      m.comments);
        // The variations inside: alternatives to this move, from the position before it.
        std::string inner;
        for (std::size_t k = 0; k < m.variations.size(); ++k)
            inner += (inner.empty() ? "" : ",") +
                line_json(name + "." + std::to_string(k + 1), m.variations[k].comments, g, ply + j, before, m.variations[k].moves,
                          number);
        out += (inner.empty() ? "" : ",\"lines\":[" + inner + "]") + "}";
        if (m.side != first) ++number;
        before = m.after;
    }
    return out + "]}";
}

// The engine's best line at a judged ply as line moves (as far as its moves are legal).
std::vector<LineMove> best_line_moves(const Ply& p) {
    std::vector<LineMove> out;
    const Judgement& j = *p.judgement;
    const std::vector<AnyPosition> after = line_positions(p.before, j.best_line);
    Color side = p.side();
    for (std::size_t k = 0; k < after.size(); ++k, side = ~side) out.push_back({j.best_line[k], side, after[k], {}, {}, {}});
    return out;
}

// The score after a judged ply from the side every score of the game is shown from.
std::string eval_text(const GameReport& g, const Ply& p) {
    const Color fixed = is_stone_game(g) ? Color::black : Color::white;
    ScoreView s = p.judgement->played;
    double e = p.judgement->expected_after;
    if (p.side() != fixed) {
        s = {-s.pieces, -s.win_in};
        e = 1 - e;
    }
    return std::string(fixed == Color::white ? "White " : "Black ") + format_score(s) + " (" + format_number(e * 100, 0) + "%)";
}

// The fields of a main-line ply beyond step_json: judgement and lines.
std::string ply_extras(const GameReport& g, std::size_t i, const AnyPosition& before) {
    const Ply& p = g.plies[i];
    std::string out;
    if (p.judgement) {
        const Verdict v = p.judgement->verdict;
        if (v != Verdict::book && p.judgement->scored) // a book move, or an ungraded one, has no score
            out += ",\"eval\":" + json_string(eval_text(g, p));
        out += ",\"eng\":" + json_string(judgement_comment(p));
        if (v != Verdict::best)
            out += ",\"v\":" + json_string(verdict_name(v)) + ",\"mark\":" + json_string(verdict_suffix(v)) +
                ",\"badge\":" + json_string(verdict_badge(v));
    }
    std::string lines;
    for (std::size_t k = 0; k < p.variations.size(); ++k)
        lines += (lines.empty() ? "" : ",") +
            line_json("Variation " + std::to_string(k + 1), p.variations[k].comments, g, i, before, p.variations[k].moves,
                      move_number(g, i));
    if (const std::vector<LineMove> best = p.judgement ? best_line_moves(p) : std::vector<LineMove>(); !best.empty())
        lines += (lines.empty() ? "" : ",") + line_json("Engine's best line", {}, g, i, before, best, move_number(g, i));
    if (!lines.empty()) out += ",\"lines\":[" + lines + "]";
    return out;
}

} // namespace

std::string_view viewer_css() {
    static constexpr std::string_view css = R"css(
.viewer{display:grid;grid-template-columns:auto minmax(200px,1fr);grid-template-areas:"board side" "controls side";gap:8px 18px;align-items:start;background:#fff;border:1px solid #d8d2c4;border-radius:6px;padding:10px;margin:.6em 0 1em}
.vboard{grid-area:board}
.vboard svg{max-width:100%;height:auto;display:block}
.vside{grid-area:side;font-size:.95em}
.vcontrols{grid-area:controls;display:flex;gap:6px}
.vbtn{font:inherit;padding:3px 10px;border:1px solid #b58863;background:#f7f1e6;border-radius:4px;cursor:pointer}
.vbtn:hover{background:#efe3cc}
.venter,.vback{display:block;margin:4px 0;text-align:left}
.vhead{font-weight:bold;font-size:1.1em;margin:0 0 .4em}
.vhead.blunder,.vhead.allows-loss{color:#a0160d}
.vhead.mistake{color:#9a4a00}
.vhead.inaccuracy{color:#6d6100}
.vhead.missed-win{color:#6a1f8e}
.vhead.book{color:#6b6b6b}
.vhead.book .badge{background:#9a9a9a}
.vhead .badge{background:#8e44ad}
.veval{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;margin:.2em 0}
.veng{color:#555;margin:.2em 0}
.vline{color:#1f5fbf;font-weight:bold;margin:.2em 0}
.vcomment{font-style:italic;border-left:3px solid #b58863;padding-left:6px;margin:.3em 0}
.vstep{cursor:pointer;padding:1px 3px;border-radius:3px}
.vstep.current,.movelist .ply.current{background:#1f5fbf;color:#fff}
.movelist .ply,.movelist .vmove{cursor:pointer}
.movelist .comment{font-family:system-ui,sans-serif;font-style:italic;color:#555;white-space:normal}
.movelist .variation{color:#666}
.movelist .nag{color:#1f5fbf;font-weight:bold}
.graph .cursor{pointer-events:none}
.graph .axis{font-family:sans-serif;font-size:11px;fill:#ddd}
section.game{content-visibility:auto;contain-intrinsic-size:auto 1800px}
@media (max-width:700px){.viewer{grid-template-columns:1fr;grid-template-areas:"board" "controls" "side"}}
@media print{.vcontrols,.venter,.vback{display:none}section.game{content-visibility:visible}.viewer,figure{break-inside:avoid}body{background:#fff}nav{display:none}}
)css";
    return css;
}

// The viewer's JavaScript as one text (its length is the script's, not a C++ function's): kept in
// one piece so that it reads, and is tested, as the script the page runs.
std::string viewer_script() {
    static constexpr std::string_view script = R"js(
(function () {
  "use strict";
  // The SVG namespace, from the boards the page holds (the page names no address).
  var NS = (document.querySelector("svg") || {}).namespaceURI, active = null;

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function h(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function button(parent, cls, text, title, fn) {
    var b = h("button", "vbtn " + cls, parent, text);
    b.type = "button";
    if (title) { b.title = title; b.setAttribute("aria-label", title); }
    if (fn) b.addEventListener("click", fn);
    return b;
  }
  function apply(cells, d) { d.forEach(function (c) { cells[c[0]] = c[1]; }); }
  function cellName(i, n) { return String.fromCharCode(97 + i % n) + (Math.floor(i / n) + 1); }
  function newSvg(w, hgt) {
    var svg = el("svg", {"class": "board", viewBox: "0 0 " + w + " " + hgt, width: w, height: hgt});
    el("rect", {x: 0, y: 0, width: w, height: hgt, fill: "#ffffff"}, svg);
    return svg;
  }
  function labels(svg, n, fx, ry, bottom, left) {
    var g = el("g", {"font-family": "sans-serif", "font-size": 13, fill: "#444", "text-anchor": "middle"}, svg);
    for (var i = 0; i < n; i++) {
      el("text", {x: fx(i), y: bottom + 16}, g, String.fromCharCode(97 + i));
      el("text", {x: left / 2, y: ry(i) + 5}, g, String(i + 1));
    }
  }

  // Gounki: rounds as circles above, squares as squares below; the squares of the last move tinted.
  function drawGounki(cells, last, flip) {
    var c = 48, left = 24, top = 34, svg = newSvg(left + 8 * c + 12, top + 8 * c + 46);
    var col = function (f) { return left + ((flip ? 7 - f : f) + 0.5) * c; };
    var row = function (r) { return top + ((flip ? r : 7 - r) + 0.5) * c; };
    for (var i = 0; i < 64; i++) {
      var x = col(i % 8) - c / 2, y = row(i >> 3) - c / 2;
      el("rect", {x: x, y: y, width: c, height: c, fill: ((i % 8) + (i >> 3)) % 2 === 0 ? "#b58863" : "#f0d9b5"}, svg);
      if (last.indexOf(i) >= 0) el("rect", {"class": "last", x: x, y: y, width: c, height: c, fill: "#e8d44d", opacity: 0.55}, svg);
    }
    el("rect", {x: left, y: top, width: 8 * c, height: 8 * c, fill: "none", stroke: "#5a4030", "stroke-width": 1.5}, svg);
    labels(svg, 8, col, row, top + 8 * c, left);
    cells.forEach(function (v, i) {
      if (!v) return;
      var white = v.charAt(0) === v.charAt(0).toUpperCase(), n = v.length;
      var piece = c * (n === 1 ? 0.52 : n === 2 ? 0.37 : 0.265), gap = c * 0.05, cx = col(i % 8);
      var y = row(i >> 3) - (n * piece + (n - 1) * gap) / 2;
      var g = el("g", {"class": "stack " + (white ? "white" : "black"), "data-square": cellName(i, 8), "data-stack": v,
        fill: white ? "#fbfaf5" : "#222222", stroke: white ? "#222222" : "#000000", "stroke-width": 1.6}, svg);
      for (var k = 0; k < n; k++, y += piece + gap) {
        if (v.charAt(k).toLowerCase() === "r") el("circle", {cx: cx, cy: y + piece / 2, r: piece / 2}, g);
        else el("rect", {x: cx - piece / 2, y: y, width: piece, height: piece, rx: piece * 0.08}, g);
      }
    });
    return svg;
  }

  function starPoints(n) {
    var lines = n % 2 === 0 ? [3, n - 4] : n >= 19 ? [3, 9, 15] : [3, n >> 1, n - 4], out = [], mid = n >> 1;
    lines.forEach(function (r) { lines.forEach(function (f) {
      if (n % 2 === 0 || n >= 19 || (f === mid) === (r === mid)) out.push([f, r]);
    }); });
    return out;
  }

  // Stone games: the stones numbered by the ply that placed them; the last one ringed in red.
  // fb: the cells forbidden to Black (Renju, Black to move), each a red cross.
  function drawStones(cells, last, n, flip, fb) {
    var c = n > 15 ? 26 : 32, left = 28, top = 16, svg = newSvg(left + n * c + 12, top + n * c + 46);
    var px = function (f) { return left + ((flip ? n - 1 - f : f) + 0.5) * c; };
    var py = function (r) { return top + ((flip ? r : n - 1 - r) + 0.5) * c; };
    el("rect", {x: left, y: top, width: n * c, height: n * c, fill: "#e4b96e", stroke: "#5a4030", "stroke-width": 1.5}, svg);
    var d = "";
    for (var i = 0; i < n; i++) d += "M" + px(0) + " " + py(i) + "H" + px(n - 1) + "M" + px(i) + " " + py(0) + "V" + py(n - 1);
    el("path", {d: d, stroke: "#3b2a1a", "stroke-width": 1}, svg);
    starPoints(n).forEach(function (p) { el("circle", {cx: px(p[0]), cy: py(p[1]), r: c * 0.1, fill: "#3b2a1a"}, svg); });
    labels(svg, n, px, py, top + n * c, left);
    cells.forEach(function (v, i) {
      if (!v) return;
      var white = v.charAt(0) === "w", x = px(i % n), y = py(Math.floor(i / n)), num = v.slice(1);
      el("circle", {"class": "stone " + (white ? "white" : "black"), "data-point": cellName(i, n), cx: x, cy: y, r: c * 0.46,
        fill: white ? "#fbfaf5" : "#1a1a1a", stroke: white ? "#222222" : "#000000", "stroke-width": 1.2}, svg);
      if (num) el("text", {x: x, y: y + c * 0.15, "text-anchor": "middle", "font-family": "sans-serif",
        "font-size": c * (num.length > 2 ? 0.32 : 0.42), fill: white ? "#222" : "#fff"}, svg, num);
    });
    last.forEach(function (i) {
      el("circle", {"class": "last", cx: px(i % n), cy: py(Math.floor(i / n)), r: c * 0.46, fill: "none", stroke: "#d62728", "stroke-width": 2.5}, svg);
    });
    (fb || []).forEach(function (i) {
      var x = px(i % n), y = py(Math.floor(i / n)), h = c * 0.22;
      el("path", {"class": "forbidden", "data-point": cellName(i, n), d: "M" + (x - h) + " " + (y - h) + "L" + (x + h) + " " + (y + h) +
        "M" + (x - h) + " " + (y + h) + "L" + (x + h) + " " + (y - h), stroke: "#d62728", "stroke-width": c * 0.09}, svg);
    });
    return svg;
  }

  // A game's viewer, made when its game is first used (a page of many games reads no data before).
  function Viewer(box, data) {
    this.box = box; this.data = data; this.id = box.getAttribute("data-for");
    this.section = document.getElementById(this.id);
    this.graph = this.section && this.section.querySelector("svg.graph");
    this.n = data.plies.length; this.ply = this.n; this.line = null; this.step = 0; this.flip = false;
    this.board = box.querySelector(".vboard"); this.side = box.querySelector(".vside");
  }
  function viewerOf(node) {
    var box = node && node.closest("section.game") && node.closest("section.game").querySelector(".viewer");
    if (!box) return null;
    if (!box.viewer) {
      var script = box.parentNode.querySelector("script.viewer-data"), data = script && JSON.parse(script.textContent);
      if (!data) return null;
      box.viewer = new Viewer(box, data);
    }
    return box.viewer;
  }
  var actions = {
    first: function (v) { v.go(0); }, prev: function (v) { v.prev(); }, next: function (v) { v.next(); },
    last: function (v) { v.go(v.n); }, flip: function (v) { v.flip = !v.flip; v.draw(); }
  };

  // The lines stepped into, outermost first: each {at, obj, up}, `at` the ply of the game (the
  // outermost) or the move of the line around it that it replaces, `up` the line around it.
  Viewer.prototype.frames = function () {
    var out = [];
    for (var f = this.line; f; f = f.up) out.unshift(f);
    return out;
  };
  Viewer.prototype.cells = function () {
    var cells = [], frames = this.frames(), upto = frames.length ? frames[0].at : this.ply, step = this.step;
    apply(cells, this.data.start.d);
    for (var i = 0; i < upto; i++) apply(cells, this.data.plies[i].d);
    frames.forEach(function (f, k) {
      var end = k + 1 < frames.length ? frames[k + 1].at : step + 1;
      for (var j = 0; j < end; j++) apply(cells, f.obj.moves[j].d);
    });
    return cells;
  };
  Viewer.prototype.current = function () {
    if (this.line) return this.line.obj.moves[this.step];
    return this.ply > 0 ? this.data.plies[this.ply - 1] : null;
  };
  Viewer.prototype.go = function (ply) { this.line = null; this.ply = Math.max(0, Math.min(this.n, ply)); this.draw(); };
  // Into line k of ply `at` (0-based), at its move `step`: the line starts from the position before that ply.
  Viewer.prototype.enter = function (at, k, step) {
    var p = this.data.plies[at], l = p && p.lines && p.lines[k];
    if (!l || !l.moves.length) return;
    this.line = {at: at, obj: l, up: null}; this.step = Math.min(step || 0, l.moves.length - 1); this.draw();
  };
  // Into line k inside the current move of the line stepped into (an alternative to that move).
  Viewer.prototype.enterInner = function (k, step) {
    var m = this.line && this.line.obj.moves[this.step], l = m && m.lines && m.lines[k];
    if (!l || !l.moves.length) return false;
    this.line = {at: this.step, obj: l, up: this.line}; this.step = Math.min(step || 0, l.moves.length - 1); this.draw();
    return true;
  };
  // A line given by its path from ply `at`: "K" the ply's line K, "K.S.L" line L of that line's move S, ...
  Viewer.prototype.enterPath = function (at, path, step) {
    var parts = String(path).split(".").map(Number);
    this.enter(at, parts[0], parts.length > 1 ? parts[1] : step);
    for (var i = 1; this.line && i + 1 < parts.length; i += 2) {
      this.step = parts[i];
      if (!this.enterInner(parts[i + 1], i + 2 < parts.length ? parts[i + 2] : step)) break;
    }
  };
  // Out of the line: to the move it replaced, in the line around it or the game.
  Viewer.prototype.leave = function () {
    if (!this.line) return;
    if (!this.line.up) return this.go(this.line.at + 1);
    this.step = this.line.at; this.line = this.line.up; this.draw();
  };
  Viewer.prototype.next = function () {
    if (!this.line) this.go(this.ply + 1);
    else if (this.step + 1 < this.line.obj.moves.length) { this.step++; this.draw(); }
  };
  Viewer.prototype.prev = function () {
    if (!this.line) this.go(this.ply - 1);
    else if (this.step > 0) { this.step--; this.draw(); }
    else if (!this.line.up) this.go(this.line.at);
    else {
      // Before the line's first move: the position before the move it replaced.
      var at = this.line.at;
      this.line = this.line.up; this.step = Math.max(0, at - 1);
      if (at > 0) this.draw(); else this.prev();
    }
  };
  Viewer.prototype.graphClick = function (ev) {
    var r = this.graph.getBoundingClientRect(), vb = this.graph.viewBox.baseVal;
    var x = (ev.clientX - r.left) / r.width * vb.width, step = +this.graph.getAttribute("data-step");
    var i = step > 0 ? Math.round((x - +this.graph.getAttribute("data-pad")) / step) : 0;
    this.go(Math.max(0, Math.min(this.n - 1, i)) + 1);
  };

  Viewer.prototype.draw = function () {
    var d = this.data, cur = this.current(), cells = this.cells(), last = cur ? cur.last : [];
    var svg = d.kind.toLowerCase() === "gounki" ? drawGounki(cells, last, this.flip)
                                                : drawStones(cells, last, d.size, this.flip, cur ? cur.fb : d.start.fb);
    el("text", {"class": "status", x: 24, y: svg.viewBox.baseVal.height - 10, "font-family": "sans-serif", "font-size": 14, fill: "#222"},
      svg, cur ? cur.st : d.start.st);
    var names = [];
    cells.forEach(function (v, i) { if (v) names.push(cellName(i, d.size) + ":" + (d.size === 8 ? v : v.charAt(0))); });
    var frames = this.frames();
    svg.setAttribute("data-ply", frames.length ? frames[0].at : this.ply);
    svg.setAttribute("data-line", this.line ? this.line.obj.name : "");
    svg.setAttribute("data-depth", frames.length);
    svg.setAttribute("data-step", this.line ? this.step + 1 : 0);
    svg.setAttribute("data-pieces", cur ? cur.pieces : d.start.pieces);
    svg.setAttribute("data-cells", names.join(" "));
    svg.setAttribute("data-flipped", this.flip ? "1" : "0");
    this.board.replaceChildren(svg);
    this.panel(cur);
    this.highlight();
  };

  // Beside the board: the move, its score from the fixed side, the engine's and the record's comments, the lines.
  Viewer.prototype.panel = function (cur) {
    var side = this.side, self = this, line = this.line;
    side.replaceChildren();
    var head = h("p", "vhead" + (cur && cur.v ? " " + cur.v : ""), side, cur ? cur.no + " " + cur.m + (cur.mark || "") + (cur.nag || "") : "Start position");
    if (cur && cur.badge) h("span", "badge", head, cur.badge);
    if (line) h("p", "vline", side, line.obj.name + ", move " + (this.step + 1) + " of " + line.obj.moves.length);
    if (cur && cur.eval) h("p", "veval", side, cur.eval);
    if (cur && cur.eng) h("p", "veng", side, "Engine: " + cur.eng);
    var notes = (cur ? cur.c : this.data.start.c) || [];
    if (line && this.step === 0 && line.obj.c) notes = line.obj.c.concat(notes);
    notes.forEach(function (c) { h("p", "vcomment", side, c); });
    if (line) {
      var moves = h("p", "vlinemoves", side);
      line.obj.moves.forEach(function (m, j) {
        var s = h("span", "vstep" + (j === self.step ? " current" : ""), moves, m.no + " " + m.m + (m.nag || ""));
        s.addEventListener("click", function () { self.step = j; self.draw(); });
        moves.appendChild(document.createTextNode(" "));
      });
      (cur.lines || []).forEach(function (l, k) {
        var text = l.moves.slice(0, 4).map(function (m) { return m.m; }).join(" ") + (l.moves.length > 4 ? " \u2026" : "");
        button(side, "venter", l.name + ": " + text, "Step into this line (Down: the first)", function () { self.enterInner(k, 0); });
      });
      var back = line.up ? line.up.obj.name : "the game";
      button(side, "vback", "\u2190 Back to " + back, "Back to " + back + " (Up)", function () { self.leave(); });
    } else if (cur && cur.lines) {
      cur.lines.forEach(function (l, k) {
        var text = l.moves.slice(0, 4).map(function (m) { return m.m; }).join(" ") + (l.moves.length > 4 ? " \u2026" : "");
        button(side, "venter", l.name + ": " + text, "Step into this line (Down: the first)", function () { self.enter(self.ply - 1, k, 0); });
      });
    }
  };

  // The current move in the move list and a cursor on the evaluation graph.
  Viewer.prototype.highlight = function () {
    if (!this.section) return;
    var frames = this.frames(), old = this.section.querySelector(".movelist .current"), ply = frames.length ? frames[0].at + 1 : this.ply;
    if (old) old.classList.remove("current");
    var span = document.getElementById(this.id + "-p" + ply);
    if (span) span.classList.add("current");
    if (!this.graph) return;
    if (!this.cursor) this.cursor = el("line", {"class": "cursor", stroke: "#1f5fbf", "stroke-width": 2, y1: 0, y2: this.graph.viewBox.baseVal.height}, this.graph);
    var x = +this.graph.getAttribute("data-pad") + +this.graph.getAttribute("data-step") * (ply - 1);
    this.cursor.setAttribute("x1", x); this.cursor.setAttribute("x2", x);
    this.cursor.style.display = ply > 0 ? "" : "none";
  };

  // One listener for every game: the controls, the move list (a move, a variation's move), the graph.
  document.addEventListener("click", function (ev) {
    var t = ev.target, v = viewerOf(t);
    if (!v) return;
    active = v;
    var control = t.closest(".vcontrols button"), ply = t.closest(".movelist .ply"), vmove = t.closest(".movelist .vmove");
    if (control) actions[control.getAttribute("data-act")](v);
    else if (vmove) v.enterPath(+vmove.getAttribute("data-ply") - 1, vmove.getAttribute("data-line"), +vmove.getAttribute("data-step"));
    else if (ply && /-p(\d+)$/.test(ply.id)) { ev.preventDefault(); v.go(+/-p(\d+)$/.exec(ply.id)[1]); }
    else if (t.closest("svg.graph")) v.graphClick(ev);
  });

  document.addEventListener("keydown", function (ev) {
    var v = active || viewerOf(boxes[0]), t = ev.target.tagName;
    if (!v || ev.altKey || ev.ctrlKey || ev.metaKey || t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
    var keys = {
      ArrowLeft: v.prev, ArrowRight: v.next, ArrowUp: v.leave, Escape: v.leave,
      Home: function () { this.go(0); }, End: function () { this.go(this.n); },
      ArrowDown: function () { if (!this.line) this.enter(this.ply - 1, 0, 0); else this.enterInner(0, 0); },
      f: function () { this.flip = !this.flip; this.draw(); }
    };
    keys.F = keys.f;
    if (!keys[ev.key]) return;
    ev.preventDefault();
    keys[ev.key].call(v);
  });

  var boxes = document.querySelectorAll(".viewer");
  boxes.forEach(function (box) {
    var bar = h("div", "vcontrols", box);
    [["first", "|\u25c0", "First position (Home)"], ["prev", "\u25c0", "Previous move (Left)"], ["next", "\u25b6", "Next move (Right)"],
     ["last", "\u25b6|", "Last position (End)"], ["flip", "Flip", "Flip the board (F)"]].forEach(function (b) {
      button(bar, "v" + b[0], b[1], b[2], null).setAttribute("data-act", b[0]);
    });
  });
  // A page of a few games starts drawn (at the last move); a long one draws each board when it is used.
  if (boxes.length <= 20) boxes.forEach(function (box) { var v = viewerOf(box); if (v) v.draw(); });
})();
)js";
    // In a CDATA section (a comment to a browser's script parser) for readers of the page as XML.
    return "<script>//<![CDATA[" + std::string(script) + "//]]></script>\n";
}

std::string nag_text(int nag) {
    static constexpr const char* glyphs[] = {"", "!", "?", "!!", "??", "!?", "?!"};
    return nag >= 1 && nag <= 6 ? glyphs[nag] : "$" + std::to_string(nag);
}

std::vector<std::string> board_cells(const AnyPosition& pos) {
    const int size = board_size(pos);
    std::vector<std::string> cells(std::size_t(size * size));
    if (const Position* g = pos.gounki()) {
        for (Square s = 0; s < 64; ++s) cells[std::size_t(file_of(s) + 8 * rank_of(s))] = stack_letters(g->at(s));
        return cells;
    }
    const stones::StonePosition& st = *pos.stones();
    for (int r = 0; r < size; ++r)
        for (int f = 0; f < size; ++f) {
            const stones::Stone s = st.at(stones::make_point(f, r));
            if (s != stones::Stone::empty) cells[std::size_t(f + size * r)] = s == stones::Stone::black ? "b" : "w";
        }
    return cells;
}

std::vector<AnyPosition> game_positions(const GameReport& game) {
    std::vector<AnyPosition> out{start_position(game)};
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        // The position after a ply is the one before the next; after the last, its move played.
        if (i + 1 < game.plies.size()) {
            out.push_back(game.plies[i + 1].before);
            continue;
        }
        const Ply& p = game.plies[i];
        if (!p.before.is_legal(p.move)) break;
        AnyPosition pos = p.before;
        pos.play(p.move);
        out.push_back(pos);
    }
    return out;
}

std::string viewer_json(const GameReport& game) {
    const std::vector<AnyPosition> positions = game_positions(game);
    const AnyPosition& start = positions.front();
    std::string start_cells;
    const std::vector<std::string> cells = board_cells(start);
    for (std::size_t i = 0; i < cells.size(); ++i)
        if (!cells[i].empty())
            start_cells += (start_cells.empty() ? "[" : ",[") + std::to_string(i) + "," + json_string(cells[i]) + "]";
    std::string out = "{\"kind\":" + json_string(game_kind_name(game.kind)) + ",\"size\":" + std::to_string(board_size(start)) +
        ",\"fixed\":\"" + (is_stone_game(game) ? "Black" : "White") + "\",\"start\":{\"d\":[" + start_cells +
        "],\"st\":" + json_string(status_text(start)) + ",\"pieces\":" + std::to_string(piece_count(start)) +
        forbidden_json(start) + (game.comments.empty() ? "" : ",\"c\":" + json_strings(game.comments)) + "},\"plies\":[";
    for (std::size_t i = 0; i + 1 < positions.size(); ++i) {
        const Ply& p = game.plies[i];
        out += (i ? "," : "") +
            step_json(move_text(p), move_number_text(game, i), positions[i], positions[i + 1], int(i + 1), p.nags, p.comments) +
            ply_extras(game, i, positions[i]) + "}";
    }
    return out + "]}";
}

std::string viewer_html(const GameReport& game, const std::string& anchor) {
    const std::vector<AnyPosition> positions = game_positions(game);
    const AnyPosition& last = positions.back();
    std::string board;
    if (const Position* g = last.gounki()) {
        BoardStyle style;
        style.cell = 48;
        style.standalone = false;
        board = board_svg(*g, style);
    } else {
        StoneBoardStyle style;
        style.standalone = false;
        if (const Move m = positions.size() > 1 ? game.plies[positions.size() - 2].move : Move::none();
            m.type() == MoveType::placement)
            style.last_move = m.point();
        board = stone_board_svg(*last.stones(), style);
    }
    const std::string caption = positions.size() == 1 ? "Start position" : "Final position";
    return "<div class=\"viewer\" data-for=\"" + xml_escape(anchor) + "\">\n<div class=\"vboard\">\n" + board +
        "</div>\n<div class=\"vside\"><p class=\"vhead\">" + caption + "</p></div>\n</div>\n" +
        "<script type=\"application/json\" class=\"viewer-data\" data-for=\"" + xml_escape(anchor) + "\">" + viewer_json(game) +
        "</script>\n";
}

} // namespace gounki::report
