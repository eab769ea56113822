// gounki serve: the HTML pages (server-rendered, a little inline script, nothing fetched from
// elsewhere): the games list, the game viewer, position and pattern search, the opening explorer,
// import by upload.
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include <algorithm>

#include "cli/command.hpp"
#include "cli/serve.hpp"
#include "cli/views.hpp"
#include "db/analysis_store.hpp"
#include "db/record_bridge.hpp"

namespace gounki::cli::serve {

std::string url_value(const std::string& text) {
    return QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(text))).toStdString();
}

std::string escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    return out;
}

namespace {

const char* style_sheet = R"(
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
nav{background:#2c3e50;padding:.6em 1em}nav a{color:#fff;margin-right:1.2em;text-decoration:none;font-weight:600}
nav .note{color:#f1c40f}main{padding:1em 1.5em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}th a{color:inherit}
.error{color:#b00020;font-weight:600}.diagnostic{color:#b00020;margin-left:2em;font-family:monospace}
.warning{color:#a15c00}form.filters label{margin-right:.8em;display:inline-block}
#board td{width:2.6em;height:2.6em;text-align:center;padding:0;font-family:monospace;cursor:pointer;font-weight:700}
#board td.dark{background:#d9c39a}#board td.light{background:#f3e6c8}#board td.stone{background:#e8c47c;width:1.6em;height:1.6em}
#listing{font-family:monospace;white-space:pre}#listing li.bad{background:#fde2e2}
iframe{width:100%;height:75vh;border:1px solid #ccc;background:#fff}.moves a{margin-right:.4em}
)";

// The players' columns as player_columns names them (cli/db_options.hpp): the colours when every game has
// the same first player, else "First" and "Second" with the colour per row.
std::string games_table_html(const std::vector<db::GameSummary>& games, bool with_ply) {
    const PlayerColumns players = player_columns(games);
    std::string out = "<table id=\"games\"><tr><th>Id</th><th>Game</th><th>" + players.heading(0) + "</th><th>" + players.heading(1) +
        "</th><th>Date</th><th>Result</th><th>Plies</th>";
    if (with_ply) out += "<th>Ply</th>";
    out += "<th>Event</th><th>Status</th></tr>";
    for (const db::GameSummary& g : games) {
        const std::string link = "<a href=\"/game/" + std::to_string(g.id) + "\">";
        out += "<tr><td>" + link + std::to_string(g.id) + "</a></td><td>" + std::string(game_kind_name(g.kind)) + "</td><td>" +
            link + escape(players.name(g, 0)) + "</a></td><td>" + escape(players.name(g, 1)) + "</td><td>" + escape(g.date) +
            "</td><td>" + result_shown(g) + "</td><td>" + std::to_string(g.ply_count) + "</td>";
        if (with_ply) out += "<td>" + std::to_string(g.ply) + "</td>";
        out += "<td>" + escape(g.event) + "</td><td>" + std::string(db::status_name(g.status)) + "</td></tr>";
    }
    return out + "</table>";
}

// The query of `r` with `changes` applied (an empty value removes the parameter), as "?a=1&b=2".
std::string query_with(const Request& r, std::initializer_list<std::pair<const char*, std::string>> changes) {
    QUrlQuery q = r.query;
    for (const auto& [name, value] : changes) {
        q.removeAllQueryItems(name);
        if (!value.empty()) q.addQueryItem(name, QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(value))));
    }
    const QString text = q.toString(QUrl::FullyEncoded);
    return text.isEmpty() ? "" : "?" + escape(text.toStdString());
}

// Previous and next links. In the id order they page by keyset (a page deep in the list comes as
// fast as the first): `next` goes on after the last game shown, `previous` ends before the first.
std::string paging_links(const Request& r, const db::Paging& paging, const db::GameList& list, const Keyset& keyset, bool by_id) {
    const auto shown = std::int64_t(list.games.size());
    const std::string first_id = shown ? std::to_string(list.games.front().id) : "", last_id = shown ? std::to_string(list.games.back().id) : "";
    const auto link = [&](const char* id, const std::string& query, const char* text) {
        return std::string(" <a id=\"") + id + "\" href=\"" + r.path.toStdString() + query + "\">" + text + "</a>";
    };
    const auto keyed = [&](const char* name, const std::string& value) {
        return query_with(r, {{"after", name == std::string("after") ? value : ""}, {"before", name == std::string("before") ? value : ""},
                              {"offset", ""}, {"page", ""}});
    };
    std::string out = "<p class=\"paging\">";
    if (keyset.after || keyset.before) {
        const std::string which = keyset.after ? "after game " + std::to_string(keyset.after) : "before game " + std::to_string(keyset.before);
        out += shown ? (keyset.after ? "Games 1-" + std::to_string(shown) + " of the " : "The last " + std::to_string(shown) + " of the ") +
                std::to_string(list.total) + " " + which
                     : "No game " + which + ".";
        out += link("first", keyed("", ""), "first page");
        if (shown && (keyset.after || shown < list.total)) out += link("prev", keyed("before", first_id), "previous");
        if (shown && (keyset.before || shown < list.total)) out += link("next", keyed("after", last_id), "next");
        return out + "</p>";
    }
    out += list.total ? "Games " + std::to_string(paging.offset + 1) + "-" + std::to_string(paging.offset + shown) + " of " +
            std::to_string(list.total)
                      : std::string("No game matches.");
    if (paging.offset > 0)
        out += link("prev",
                    by_id && shown ? keyed("before", first_id)
                                   : query_with(r, {{"offset", std::to_string(std::max<std::int64_t>(0, paging.offset - paging.limit))}, {"page", ""}}),
                    "previous");
    if (paging.offset + shown < list.total)
        out += link("next", by_id ? keyed("after", last_id) : query_with(r, {{"offset", std::to_string(paging.offset + shown)}, {"page", ""}}),
                    "next");
    return out + "</p>";
}

std::string text_input(const Request& r, const char* name, const char* label) {
    return std::string("<label>") + label + " <input name=\"" + name + "\" value=\"" +
        escape(r.param(name).value_or("").toStdString()) + "\" size=\"12\"></label>";
}

std::string select_input(const Request& r, const char* name, const char* label, const std::vector<std::string>& values) {
    const std::string chosen = r.param(name).value_or("").toStdString();
    std::string out = std::string("<label>") + label + " <select name=\"" + name + "\"><option value=\"\">any</option>";
    for (const std::string& v : values)
        out += "<option" + std::string(v == chosen ? " selected" : "") + ">" + escape(v) + "</option>";
    return out + "</select></label>";
}

std::string filter_form(const Request& r, const char* action) {
    std::vector<std::string> kinds;
    for (const GameInfo& g : games()) kinds.emplace_back(g.name);
    std::string out = std::string("<form class=\"filters\" method=\"get\" action=\"") + action + "\">";
    for (const auto& [name, label] : {std::pair{"player", "Player"}, {"white", "White"}, {"black", "Black"}, {"event", "Event"},
                                      {"site", "Site"}, {"from", "From"}, {"to", "To"}})
        out += text_input(r, name, label);
    out += select_input(r, "result", "Result", {"1-0", "0-1", "1/2-1/2", "*"});
    out += select_input(r, "status", "Status", {"valid", "partial", "invalid"});
    out += select_input(r, "game", "Game", kinds);
    for (const char* keep : {"sort", "desc", "position", "moves", "pattern", "opening"})
        if (const auto v = r.param(keep))
            out += std::string("<input type=\"hidden\" name=\"") + keep + "\" value=\"" + escape(v->toStdString()) + "\">";
    return out + " <button type=\"submit\" id=\"filter\">Filter</button></form>";
}

// Column headings that sort the list: a click sorts by the column, a second click reverses it.
std::string sort_links(const Request& r) {
    const std::string key = r.param("sort").value_or("id").toStdString();
    bool desc = false;
    r.flag("desc", desc); // a bad value is the list's error, shown beside
    std::string out = "<p class=\"sort\">Sort by:";
    for (const char* k : {"id", "date", "player", "event", "result"}) {
        const bool now = key == k;
        out += std::string(" <a class=\"sort-") + k + "\" href=\"/" + query_with(r, {{"sort", k}, {"desc", now && !desc ? "1" : ""}, {"offset", ""}, {"page", ""}, {"after", ""}, {"before", ""}}) +
            "\">" + k + (now ? (desc ? " &#9660;" : " &#9650;") : "") + "</a>";
    }
    return out + "</p>";
}

} // namespace

std::string App::page(const std::string& title, const std::string& body) const {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"gounki-token\" content=\"" +
        token_.toStdString() + "\"><title>" + escape(title) + " - gounki</title><style>" + style_sheet +
        "</style></head><body><nav><a href=\"/\">Games</a><a href=\"/search\">Search</a><a href=\"/explorer\">Explorer</a>"
        "<a href=\"/import\">Import</a>" +
        (options_.read_only ? "<span class=\"note\">read-only</span>" : "") + "</nav><main><h1>" + escape(title) + "</h1>" + body +
        "</main></body></html>\n";
}

Reply App::page_games(const Request& r) {
    db::GameFilter filter;
    db::Paging paging;
    Keyset keyset;
    std::string e = read_filter_values(r.lookup(), "", filter);
    if (e.empty()) e = read_paging_values(r, paging);
    if (e.empty()) e = read_keyset_values(r, filter, keyset);
    std::string body = filter_form(r, "/") + sort_links(r);
    if (!e.empty()) return html_reply(page("Games", body + "<p class=\"error\">" + escape(e) + "</p>"), 400);
    db::GameList list = list_games(filter, paging);
    keyset.restore(filter, list);
    body += paging_links(r, paging, list, keyset, filter.order.key == db::SortKey::id) + games_table_html(list.games, false);
    return html_reply(page("Games", body));
}

namespace {

std::string judgement_table(const db::StoredGame& game, const db::StoredJudgement& stored) {
    const QJsonObject j = judgement_json(game, stored);
    int book = 0;
    for (const QJsonValue& v : j["plies"].toArray()) book += v.toObject()["verdict"].toString() == "book";
    std::string out = "<h2>Judgements</h2><p>" + escape(stored.settings) + ", " + escape(stored.created) +
        (book == 1  ? std::string("; the first ply is a book move, not judged")
             : book ? "; the first " + std::to_string(book) + " plies are book moves, not judged"
                    : std::string()) +
        "</p><table id=\"judgements\"><tr><th>Ply</th><th>Played</th><th>Verdict</th><th>Best</th><th>Score</th></tr>";
    for (const QJsonValue& v : j["plies"].toArray()) {
        const QJsonObject p = v.toObject();
        if (p["verdict"].toString() == "best" || p["verdict"].toString() == "book") continue;
        out += "<tr><td>" + std::to_string(p["ply"].toInt() + 1) + "</td><td>" + escape(p["played"].toString().toStdString()) +
            "</td><td>" + escape(p["verdict"].toString().toStdString()) + "</td><td>" +
            escape(p["best"].toString().toStdString()) + "</td><td>" +
            (p["graded"].toBool(true)
                 ? std::to_string(p["played_score"].toInt()) + " / " + std::to_string(p["best_score"].toInt())
                 : std::string("no evaluation to grade the move with")) +
            "</td></tr>";
    }
    return out + "</table>";
}

// The moves, each a link to the explorer at the position after it.
std::string moves_links(const db::StoredGame& game) {
    AnyPosition pos = game.start;
    const std::string start = url_value(pos.to_text());
    std::string list, out = "<p class=\"moves\">";
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const std::string text = pos.move_text(game.moves[i]);
        list += (list.empty() ? "" : " ") + text;
        out += "<a href=\"/explorer?position=" + start + "&amp;moves=" + url_value(list) + "\">" +
            (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : "") + escape(text) + "</a>";
        pos.play(game.moves[i]);
    }
    return out + "</p>";
}

// "Judge this game": POST /api/games/ID/judge, then its progress polled until the judgement is
// stored (the page reloads to show it) or the judging failed (its error shown). A run already
// under way when the page opens is followed the same way.
const char* const judge_script = R"(
(function(){
  var id=document.getElementById('judge').dataset.game, token=document.querySelector('meta[name=gounki-token]').content;
  var button=document.getElementById('judge'), progress=document.getElementById('judge-progress'), error=document.getElementById('judge-error');
  function show(s){
    if(s.error){error.textContent=s.error;error.hidden=false;}
    if(s.state==='done'){progress.textContent='judged: loading the judgement';location.reload();return;}
    if(s.state==='queued'||s.state==='running'){
      button.disabled=true; error.hidden=true;
      progress.textContent=s.state==='queued'?'waiting for another game to be judged':
        'judging: ply '+s.plies_done+' of '+s.plies+', '+(s.elapsed_ms/1000).toFixed(1)+' s';
      setTimeout(poll,400); return;
    }
    button.disabled=false; progress.textContent='';
  }
  function ask(method){
    var xhr=new XMLHttpRequest(); xhr.open(method,'/api/games/'+id+'/judge');
    if(method==='POST') xhr.setRequestHeader('X-Gounki-Token',token);
    xhr.onload=function(){var s;try{s=JSON.parse(xhr.responseText);}catch(e){s={};}
      if(xhr.status>=400){error.textContent=(s.error&&s.error.message)||('HTTP '+xhr.status);error.hidden=false;button.disabled=false;return;}
      show(s);};
    xhr.onerror=function(){error.textContent='the server did not answer';error.hidden=false;button.disabled=false;};
    xhr.send();
  }
  function poll(){ask('GET');}
  button.addEventListener('click',function(){button.disabled=true;ask('POST');});
  poll();
})();
)";

// judge_options: serve's --judge-options, shown after the command that judges the same way.
std::string unjudged_html(std::int64_t id, bool read_only, const std::string& judge_options) {
    const std::string n = std::to_string(id);
    const std::string command = "gounki analyze " + n + (judge_options.empty() ? "" : " " + escape(judge_options));
    if (read_only) return "<p id=\"unjudged\">No stored judgement (the server is read-only: run <code>" + command + "</code>).</p>";
    return "<p id=\"unjudged\">No stored judgement. <button type=\"button\" id=\"judge\" data-game=\"" + n +
        "\">Judge this game</button> <span id=\"judge-progress\"></span> (the settings of <code>" + command +
        "</code>)</p><p class=\"error\" id=\"judge-error\" hidden></p><script>" + judge_script + "</script>";
}

} // namespace

Reply App::page_game(std::int64_t id) {
    const auto game = db_.game(id);
    if (!game) return html_reply(page("No such game", "<p class=\"error\">No game with id " + std::to_string(id) + ".</p>"), 404);
    const db::GameSummary& g = game->summary;
    std::string body = "<p>" + escape(g.event) + " " + escape(g.site) + " " + escape(g.date) + " &mdash; " +
        result_shown(g) + " (" + std::string(db::status_name(g.status)) + ")</p>";
    const std::string report = "/api/report/" + std::to_string(id);
    body += "<p>Download the report: <a id=\"download-html\" href=\"" + report + "?format=html\">HTML</a> <a id=\"download-md\" href=\"" +
        report + "?format=md\">Markdown</a> <a id=\"download-gpn\" href=\"" + report + "?format=gpn\">annotated record</a> &middot; <a href=\"/api/games/" +
        std::to_string(id) + "\">JSON</a></p>";
    body += "<h2>Moves (open the explorer at any of them)</h2>" + moves_links(*game);
    for (const db::Diagnostic& d : game->diagnostics)
        body += "<p class=\"diagnostic\">line " + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
            std::string(db::severity_name(d.severity)) + ": " + escape(d.message) + "</p>";
    db::AnalysisStore store(db_.sql());
    if (const auto stored = store.load(id)) body += judgement_table(*game, *stored);
    else body += unjudged_html(id, options_.read_only, options_.judge_options);
    body += "<iframe id=\"report\" title=\"The game's report\" src=\"" + report + "?format=html&amp;inline=1\"></iframe>";
    return html_reply(page(players_shown(g), body));
}

} // namespace gounki::cli::serve
