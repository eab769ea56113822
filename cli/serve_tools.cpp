// gounki serve: the pages with a board or a form: position and pattern search, the opening
// explorer, import by upload.
#include <QJsonArray>
#include <QUrl>

#include "cli/command.hpp"
#include "cli/serve.hpp"
#include "cli/views.hpp"
#include "report/board_diagram.hpp"

namespace gounki::cli::serve {

namespace {

// The board editor: a palette, the board, the side to move; it writes the position text into the
// form's `position` field. Gounki stacks grow by one piece a click (up to three of one colour).
const char* board_editor_script = R"JS(
(function(){
  var field=document.getElementById('position'), kind=document.getElementById('kind'), side=document.getElementById('side');
  var board=document.getElementById('board'), palette=document.getElementById('palette');
  var cells=[], size=8, stones=false, head='', tail='';
  function parse(text){
    var parts=text.trim().split(/\s+/); stones=!/\//.test(parts[0]);
    var rows, i=0;
    if(stones){ head=parts[0]+' '+parts[1]; size=parseInt(parts[1],10); rows=parts[2].split('/'); side.value=parts[3]||'b'; tail=parts.slice(4).join(' '); }
    else { size=8; rows=parts[0].split('/'); side.value=parts[1]||'w'; head=''; tail=''; }
    cells=[];
    rows.forEach(function(row){ var j=0; while(j<row.length){ var c=row[j];
      if(/[0-9]/.test(c)){ var n=''; while(j<row.length&&/[0-9]/.test(row[j])) n+=row[j++]; for(var k=0;k<parseInt(n,10);k++) cells.push(''); continue; }
      if(c=='('){ var e=row.indexOf(')',j); cells.push(row.substring(j+1,e)); j=e+1; continue; }
      cells.push(c); j++; } });
    draw();
  }
  function text(){
    var rows=[];
    for(var r=0;r<size;r++){ var s='', empty=0;
      for(var f=0;f<size;f++){ var c=cells[r*size+f];
        if(!c){ empty++; continue; } if(empty){ s+=empty; empty=0; }
        s+= c.length>1 ? '('+c.split('').sort(function(a,b){return 'RrSs'.indexOf(a)-'RrSs'.indexOf(b);}).join('')+')' : c; }
      if(empty) s+=empty; rows.push(s); }
    return stones ? (head+' '+rows.join('/')+' '+side.value+(tail?' '+tail:'')) : rows.join('/')+' '+side.value;
  }
  function piece(){ var p=palette.querySelector('input:checked'); return p?p.value:''; }
  function click(i){
    var p=piece(), c=cells[i];
    if(stones){ cells[i]= (p=='erase'||p==c) ? '' : (p=='x'||p=='o'?p:'x'); }
    else if(p=='erase'||!p){ cells[i]=''; }
    else { var white=/[RS]/.test(p);
      if(!c||/[RS]/.test(c)!=white||c.length>=3) cells[i]=p; else cells[i]=c+p; }
    field.value=text(); draw();
  }
  function draw(){
    board.innerHTML=''; palette.querySelectorAll('.gounki').forEach(function(e){e.style.display=stones?'none':'';});
    palette.querySelectorAll('.stones').forEach(function(e){e.style.display=stones?'':'none';});
    for(var r=0;r<size;r++){ var tr=document.createElement('tr');
      for(var f=0;f<size;f++){ var td=document.createElement('td'), i=r*size+f;
        td.className= stones ? 'stone' : ((r+f)%2 ? 'dark' : 'light');
        td.id='sq-'+String.fromCharCode(97+f)+(size-r);
        td.textContent= stones ? (cells[i]=='x'?'\u25CF':cells[i]=='o'?'\u25CB':'') : cells[i];
        td.addEventListener('click', click.bind(null,i)); tr.appendChild(td); }
      board.appendChild(tr); }
    field.value=text();
  }
  side.addEventListener('change', function(){ field.value=text(); });
  kind.addEventListener('change', function(){ parse(kind.value); });
  document.getElementById('clear').addEventListener('click', function(){ cells=cells.map(function(){return '';}); draw(); });
  parse(field.value);
})();
)JS";

std::string board_editor(const AnyPosition& pos, bool symmetric) {
    std::string kinds;
    for (const GameInfo& g : games()) {
        const std::string start = AnyPosition::start(g.kind).to_text();
        kinds += "<option value=\"" + escape(start) + "\"" + (g.kind == pos.kind() ? " selected" : "") + ">" + std::string(g.name) + "</option>";
    }
    std::string palette = "<span id=\"palette\">";
    for (const auto& [value, label, cls] : {std::tuple{"R", "White round", "gounki"}, {"S", "White square", "gounki"},
                                           {"r", "Black round", "gounki"}, {"s", "Black square", "gounki"},
                                           {"x", "Black stone", "stones"}, {"o", "White stone", "stones"}, {"erase", "Erase", ""}})
        palette += std::string("<label class=\"") + cls + "\"><input type=\"radio\" name=\"piece\" id=\"piece-" + value +
            "\" value=\"" + value + "\"" + (std::string(value) == "R" ? " checked" : "") + "> " + label + "</label> ";
    palette += "</span>";
    return "<form method=\"get\" action=\"/search\" id=\"setup\"><p>Start from <select id=\"kind\">" + kinds + "</select> " +
        palette + " <button type=\"button\" id=\"clear\">Empty the board</button></p><table id=\"board\"></table>" +
        "<p>Side to move <select id=\"side\"><option value=\"w\">w</option><option value=\"b\">b</option></select> " +
        "Position <input id=\"position\" name=\"position\" size=\"70\" value=\"" + escape(pos.to_text()) +
        "\"> <label><input type=\"checkbox\" name=\"symmetric\" value=\"1\" id=\"symmetric\"" + (symmetric ? " checked" : "") +
        "> and its turns and mirror images (stone games)</label> <button type=\"submit\" id=\"search-position\">Search this position</button></p></form><script>" +
        board_editor_script + "</script>";
}

const char* pattern_help = R"(<details open><summary>Pattern syntax</summary><ul>
<li>Terms separated by blanks or <code>;</code>.</li>
<li>A board of 8 ranks separated by <code>/</code> (rank 8 first): <code>R S r s (RS)</code> exactly that stack,
<code>1</code>-<code>8</code> empty squares, <code>.</code> empty, <code>?</code> anything, <code>W B X</code> any white, black or any stack,
<code>[Wr2]</code> a stack with conditions (colour W or B; rN sN nN: at least N rounds, squares, pieces).</li>
<li><code>SQ=CELL</code> for one square: <code>e4=W</code>, <code>c3=(RS)</code>.</li>
<li><code>w</code> or <code>b</code>: the side to move.</li>
<li>Counts <code>COUNT OP N</code> with OP one of <code>&gt;= &lt;= = &gt; &lt;</code>; COUNT is <code>#CELL</code> (stacks matching CELL),
<code>Wr Ws Wp</code> (White's rounds, squares, pieces) or <code>Br Bs Bp</code>. Example: <code>#[Wn3]&gt;=2</code> (White has two stacks of three).</li>
<li>Stone games: the game's name first, then a board of 15 or 19 ranks (<code>x o . ? *</code> and digits), <code>PT=CELL</code> terms
(<code>h8=x</code>), <code>b</code> or <code>w</code>, counts <code>Bc Wc</code> (stones captured by Black, White) and <code>Bs Ws</code>
(stones on the board): <code>Ninuki h8=x i9=x Bc&gt;=4</code>.</li></ul></details>)";

// The 26 Renju openings to choose from, the one searched for chosen.
std::string opening_form(const Request& r) {
    const stones::RenjuOpening* chosen = nullptr;
    if (const auto v = r.param("opening")) chosen = stones::find_renju_opening(v->toStdString());
    std::string out = "<h2>Or a Renju opening</h2><form method=\"get\" action=\"/search\" id=\"opening-form\"><select name=\"opening\" id=\"opening\">";
    for (const stones::RenjuOpening& o : stones::renju_openings())
        out += "<option value=\"" + o.code() + "\"" + (&o == chosen ? " selected" : "") + ">" + escape(o.label()) + " " + std::string(o.kanji) + "</option>";
    return out + "</select> <button type=\"submit\" id=\"search-opening\">Search</button></form>";
}

} // namespace

Reply App::page_search(const Request& r) {
    AnyPosition pos;
    bool by_position = false;
    Request positional = r;
    positional.query.removeAllQueryItems("game");
    std::string e = read_position_values(positional, pos, by_position);
    bool symmetric_asked = false;
    if (e.empty()) e = r.flag("symmetric", symmetric_asked);
    std::string body = "<h2>Set up a position</h2>" + board_editor(pos, symmetric_asked) + "<h2>Or a pattern</h2>" +
        "<form method=\"get\" action=\"/search\" id=\"pattern-form\"><input name=\"pattern\" id=\"pattern\" size=\"70\" value=\"" +
        escape(r.param("pattern").value_or("").toStdString()) + "\"> <label><input type=\"checkbox\" name=\"symmetric\" value=\"1\" id=\"pattern-symmetric\"" +
        (symmetric_asked ? " checked" : "") + "> and its turns and mirror images (stone games)</label> <button type=\"submit\" id=\"search-pattern\">Search</button></form>" +
        pattern_help + opening_form(r);
    if (e.empty() && !by_position && !r.param("pattern") && !r.param("opening")) return html_reply(page("Search", body)); // the form alone
    db::GameFilter filter;
    db::Paging paging;
    if (e.empty()) e = read_filter_values(r.lookup(), "", filter);
    if (e.empty()) e = read_paging_values(r, paging);
    SearchQuery query;
    if (e.empty()) e = read_search_values(r, pos, by_position, filter, query);
    if (!e.empty()) return html_reply(page("Search", "<p class=\"error\">" + escape(e) + "</p>" + body), 400);
    const db::GameList list = run_search(db_, query, filter, paging, 0);
    std::string results = "<h2 id=\"results\">" + std::to_string(list.total) + (list.total == 1 ? " game" : " games") +
        (by_position ? std::string(" reached this position") + images_said(query.symmetric) : query.opening ? " opened " + escape(query.opening->label()) : std::string(" matched the pattern") + images_said(query.symmetric)) + "</h2>";
    const PlayerColumns players = player_columns(list.games);
    std::string table = "<table id=\"games\"><tr><th>Id</th><th>" + players.heading(0) + "</th><th>" + players.heading(1) +
        "</th><th>Date</th><th>Result</th><th>Ply</th></tr>";
    for (const db::GameSummary& g : list.games)
        table += "<tr><td><a href=\"/game/" + std::to_string(g.id) + "\">" + std::to_string(g.id) + "</a></td><td>" +
            escape(players.name(g, 0)) + "</td><td>" + escape(players.name(g, 1)) + "</td><td>" + escape(g.date) +
            "</td><td>" + result_shown(g) + "</td><td>" + std::to_string(g.ply) + "</td></tr>";
    return html_reply(page("Search", results + table + "</table>" + body));
}

namespace {

std::string board_picture(const AnyPosition& pos) {
    if (const Position* g = pos.gounki()) {
        report::BoardStyle style;
        style.standalone = false;
        style.cell = 44;
        return report::board_svg(*g, style);
    }
    report::StoneBoardStyle style;
    style.standalone = false;
    return report::stone_board_svg(*pos.stones(), style);
}

} // namespace

Reply App::page_explorer(const Request& r) {
    AnyPosition pos;
    bool given = false;
    // A stone position's turns and mirror images taken together (symmetric=1), kept along the links.
    bool symmetric = false;
    std::string e = read_position_values(r, pos, given);
    if (e.empty()) e = read_symmetric_value(r, pos, symmetric);
    if (!e.empty())
        return html_reply(page("Explorer", "<p class=\"error\">" + escape(e) + "</p><p><a href=\"/explorer\">The start</a></p>"), 400);
    // The line played so far, each prefix a link back to it.
    const std::string start = r.param("position") ? "position=" + url_value(r.param("position")->toStdString())
                                                  : "game=" + url_value(std::string(game_kind_name(pos.kind())));
    const std::string base = start + (symmetric ? "&amp;symmetric=1" : "");
    const std::string moves = r.param("moves").value_or("").simplified().toStdString();
    std::string line = "<p id=\"line\"><a href=\"/explorer?" + base + "\">start</a>";
    std::string prefix;
    for (const QString& m : QString::fromStdString(moves).split(' ', Qt::SkipEmptyParts)) {
        prefix.append(prefix.empty() ? "" : " ").append(m.toStdString());
        line += " <a href=\"/explorer?" + base + "&amp;moves=" + url_value(prefix) + "\">" + escape(m.toStdString()) + "</a>";
    }
    line += "</p>";
    const auto kept = tree(pos, symmetric);
    const db::Tree& here = *kept;
    const bool stones = first_mover(pos.kind()) == Color::black; // Black's share first where Black moves first
    std::string toggle;
    if (pos.stones()) {
        const std::string other = "/explorer?" + start + (symmetric ? "" : "&amp;symmetric=1") + (moves.empty() ? "" : "&amp;moves=" + url_value(moves));
        toggle = symmetric ? "<p id=\"symmetry\">Turns and mirror images of the position taken together. <a id=\"symmetric-toggle\" href=\"" +
                                 other + "\">This position alone</a></p>"
                           : "<p id=\"symmetry\"><a id=\"symmetric-toggle\" href=\"" + other +
                                 "\">Take its turns and mirror images together</a></p>";
    }
    std::string table = toggle + "<p id=\"count\">" + std::to_string(here.games) + (here.games == 1 ? " game" : " games") +
        " continued from here" + images_said(symmetric, true) + ".</p><table id=\"tree\"><tr><th>Move</th><th>Games</th>" +
        (stones ? "<th>Black</th><th>Draw</th><th>White</th>" : "<th>White</th><th>Draw</th><th>Black</th>") + "<th>Latest game</th></tr>";
    const auto pct = [](std::int64_t part, std::int64_t whole) {
        return std::to_string(whole ? int(100.0 * double(part) / double(whole) + 0.5) : 0) + "%";
    };
    for (const db::TreeMove& m : here.moves) {
        const std::string text = pos.move_text(m.move);
        const std::string next = moves.empty() ? text : moves + " " + text;
        const db::GameSummary& g = m.latest;
        const stones::RenjuOpening* o = renju_opening_after(pos, m.move);
        table += "<tr><td><a class=\"move\" href=\"/explorer?" + base + "&amp;moves=" + url_value(next) + "\">" + escape(text) +
            "</a>" + (o ? " <span class=\"opening\">" + escape(o->label()) + "</span>" : "") + "</td><td>" + std::to_string(m.games) + "</td><td>" + pct(stones ? m.black_wins : m.white_wins, m.games) +
            "</td><td>" + pct(m.draws, m.games) + "</td><td>" + pct(stones ? m.white_wins : m.black_wins, m.games) +
            "</td><td><a class=\"game\" href=\"/game/" + std::to_string(g.id) + "\">#" + std::to_string(g.id) + " " +
            escape(players_shown(g)) + " " + escape(g.date) + " " + result_shown(g) + "</a></td></tr>";
    }
    table += "</table>";
    std::string kinds = "<form method=\"get\" action=\"/explorer\">Start of <select name=\"game\">";
    for (const GameInfo& g : games()) kinds += "<option" + std::string(g.kind == pos.kind() ? " selected" : "") + ">" + std::string(g.name) + "</option>";
    kinds += "</select> <button type=\"submit\">Go</button></form>";
    const stones::RenjuOpening* opening = renju_opening(pos);
    return html_reply(page("Explorer", kinds + line + "<div id=\"position-board\">" + board_picture(pos) + "</div><p><code id=\"position-text\">" +
                                           escape(pos.to_text()) + "</code></p>" +
                                           (opening ? "<p id=\"opening\">Opening " + escape(opening->label()) + "</p>" : "") + table));
}

namespace {

// Uploads the chosen file's bytes as they are (an archive, a file in Windows-1252: the server tells)
// to /api/import with the session token, shows the progress, then the file with each diagnostic
// under its line; the diagnostics of an archive's members (named ARCHIVE/MEMBER) are listed above.
const char* import_script = R"JS(
(function(){
  var token=document.querySelector('meta[name=gounki-token]').content;
  var bar=document.getElementById('progress'), out=document.getElementById('summary'), listing=document.getElementById('listing');
  function el(tag, cls, text){ var e=document.createElement(tag); if(cls) e.className=cls; if(text!=null) e.textContent=text; return e; }
  document.getElementById('upload').addEventListener('click', function(){
    var file=document.getElementById('file').files[0];
    if(!file){ out.textContent='Choose a record file first.'; return; }
    file.arrayBuffer().then(function(bytes){
      var text=new TextDecoder('utf-8').decode(bytes);
      var xhr=new XMLHttpRequest();
      xhr.open('POST','/api/import?name='+encodeURIComponent(file.name));
      xhr.setRequestHeader('X-Gounki-Token', token);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress=function(e){ if(e.lengthComputable) bar.value=Math.round(100*e.loaded/e.total); };
      xhr.onload=function(){
        bar.value=100; var answer; try{ answer=JSON.parse(xhr.responseText); }catch(e){ out.textContent='Bad answer: '+xhr.status; return; }
        if(answer.error && !answer.summary){ out.className='error'; out.textContent=answer.error.message; return; }
        var s=answer.summary; out.className=answer.error ? 'error' : '';
        out.textContent=(answer.error ? answer.error.message+'.' : s.read+' games read: '+s.stored+' stored ('+s.broken+' broken), '+s.duplicates+' duplicates, '+s.already_imported+' already imported, '+s.rejected+' rejected.')+
          (s.diagnostics_left_out ? ' '+s.diagnostics_left_out+' more diagnostics not shown.' : '');
        if(!answer.error) answer.games.forEach(function(g){ if(g.id){ var a=el('a',null,' game '+g.id); a.href='/game/'+g.id; out.appendChild(a); } });
        listing.innerHTML='';
        var own=function(d){ return d.file===file.name; };
        // The text is listed when it is one: an archive's bytes are not (its members' places are named).
        if(text.slice(0,256).indexOf('\u0000')<0)
          text.split(/\r\n|\r|\n/).forEach(function(line, i){ var li=el('li',null,line); li.id='line-'+(i+1); listing.appendChild(li); });
        answer.diagnostics.forEach(function(d){
          var where=own(d) && d.line ? document.getElementById('line-'+d.line) : null;
          var place=own(d) ? (d.line?'line '+d.line+(d.column?':'+d.column:'')+': ':'') : d.file+(d.line?':'+d.line+(d.column?':'+d.column:''):'')+': ';
          var div=el('div','diagnostic '+d.severity,place+d.severity+': '+d.message+(d.code?' ['+d.code+']':''));
          if(where){ where.className='bad'; where.appendChild(div); } else listing.parentNode.insertBefore(div, listing);
        });
      };
      xhr.onerror=function(){ out.className='error'; out.textContent='The upload failed.'; };
      xhr.send(bytes);
    });
  });
})();
)JS";

} // namespace

Reply App::page_import() {
    if (options_.read_only)
        return html_reply(page("Import", "<p class=\"error\">This server was started with --read-only: imports are refused.</p>"));
    return html_reply(page("Import",
                           "<p>A record file (GPN, SGF, PSQ; told by its content, else its name) or an archive of them "
                           "(zip, tar.gz, .pgn.gz...), up to " +
                               std::to_string(options_.max_upload >> 20) +
                               " MiB. Its games are stored whole or not at all; problems are shown at their line.</p>"
                               "<p><input type=\"file\" id=\"file\"> <button type=\"button\" id=\"upload\">Import</button> "
                               "<progress id=\"progress\" max=\"100\" value=\"0\"></progress></p><p id=\"summary\"></p>"
                               "<ol id=\"listing\"></ol><script>" +
                               std::string(import_script) + "</script>"));
}

} // namespace gounki::cli::serve
