#include <algorithm>
#include <cctype>

#include "parser/dates.hpp"
#include "parser/resolver.hpp"

namespace gounki::parser::resolve_detail {

std::string_view result_text(ast::Result r) {
    switch (r) {
    case ast::Result::white_wins: return "1-0";
    case ast::Result::black_wins: return "0-1";
    case ast::Result::draw: return "1/2-1/2";
    case ast::Result::unfinished: return "*";
    case ast::Result::none: break;
    }
    return "";
}

bool is_result_text(std::string_view s) { return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*"; }

std::string result_tag_value(std::string_view v) {
    std::string out;
    for (char c : v)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') out += c;
    return out;
}

void Resolver::read_tags() {
    for (const ast::Tag& t : game_.tags) {
        const std::string& raw = t.raw_value;
        std::string value(raw, 0, std::min(raw.find('\\'), raw.size())); // up to the first escape, if any
        for (std::size_t i = value.size(); i < raw.size(); ++i) {
            if (raw[i] != '\\' || i + 1 == raw.size()) {
                value += raw[i];
                continue;
            }
            const char next = raw[i + 1];
            if (next == '"' || next == '\\') {
                value += next;
                ++i;
                continue;
            }
            // The value starts after `[Name "`: find the backslash in the source for its column.
            const std::string_view src = src_.slice(t.offset, t.length);
            const std::size_t quote = src.find('"');
            const std::uint32_t at = t.offset + std::uint32_t(quote == std::string_view::npos ? 0 : quote + 1 + i);
            Diagnostic& d = report(Severity::warning, "bad-escape", at,
                                   "unknown escape '\\" + std::string(1, next) + "' in the value of tag " + t.name +
                                       " (only \\\" and \\\\ exist); kept as written");
            d.written = std::string(src);
            value += '\\';
        }
        for (const auto& [name, v] : out_.tags) {
            if (name == t.name) {
                Diagnostic& d = report(Severity::warning, "duplicate-tag", t.offset,
                                       "tag " + t.name + " appears twice; the first value \"" + v + "\" is used");
                d.written = std::string(src_.slice(t.offset, t.length));
                break;
            }
        }
        out_.tags.emplace_back(t.name, std::move(value));
    }
    normalize_date_tag(out_.tags);
}

namespace {

bool month_first_source(const std::vector<std::pair<std::string, std::string>>& tags) {
    for (const auto& [name, value] : tags)
        if (name == "Site" && lower(value).find("pente.org") != std::string::npos) return true;
    return false;
}

} // namespace

void normalize_date_tag(std::vector<std::pair<std::string, std::string>>& tags) {
    for (auto& [name, value] : tags)
        if (name == "Date") {
            value = project_date(value, month_first_source(tags));
            return;
        }
}

// A stone game's rules (Game, Size and Rules tags) and start (Position tag, else an empty board).
bool Resolver::set_up_stones() {
    auto tag_offset = [&](std::string_view name) {
        for (const ast::Tag& t : game_.tags)
            if (t.name == name) return t.offset;
        return game_.offset;
    };
    pair_first_ = first_mover(out_.kind);
    name_players_by_colour();
    stones::Rules rules = stones::Rules::defaults(out_.kind);
    if (const std::string* size = out_.tag("Size"))
        if (auto e = stones::apply_size_tag(rules, *size)) {
            report(Severity::error, "bad-rules", tag_offset("Size"), *e + "; the moves are not replayed");
            return false;
        }
    if (const std::string* r = out_.tag("Rules"))
        if (auto e = stones::apply_rules_tag(rules, *r)) {
            report(Severity::error, "bad-rules", tag_offset("Rules"), *e + "; the moves are not replayed");
            return false;
        }
    out_.start = stones::StonePosition(rules);
    if (const std::string* position = out_.tag("Position")) {
        auto parsed = stones::StonePosition::from_text(trim(*position));
        if (auto* e = std::get_if<PositionError>(&parsed)) {
            report(Severity::error, "bad-position", tag_offset("Position"),
                   "bad Position tag at character " + std::to_string(e->column + 1) + ": " + e->message);
            return false;
        }
        const stones::StonePosition& p = std::get<stones::StonePosition>(parsed);
        if (!(p.rules() == rules)) {
            report(Severity::error, "bad-position", tag_offset("Position"),
                   cat("the Position tag is a ", game_kind_name(p.rules().kind), " ", std::to_string(p.size()), "x",
                       std::to_string(p.size()), " position with other rules than the Game, Size and Rules tags say"));
            return false;
        }
        out_.start = p;
        set_up_ = !(p == stones::StonePosition(rules));
    }
    black_first_ = out_.start.as_stones().side_to_move() != pair_first_;
    go_coordinates_ = detect_go_coordinates(out_.start.as_stones().size());
    return true;
}

// pente.org names the players by their turn, not their colour: `Player 1 Name` moves first, and
// so holds the game's first colour (White in Pente). The White/Black tags (and WhiteElo/BlackElo
// from `Player N Rating`) are added where the record has none; the originals are kept. Its results
// name the turn too (`1-0`: Player 1 won): in a game Black opens they are put in colours.
void Resolver::name_players_by_colour() {
    const bool first_white = first_mover(out_.kind) == Color::white;
    const bool by_turn = (out_.tag("Player 1 Name") || out_.tag("Player 2 Name")) && !out_.tag("White") && !out_.tag("Black");
    if (by_turn && !first_white) put_result_in_colours("ResultByTurn");
    const std::pair<const char*, const char*> names[] = {
        {"Player 1 Name", first_white ? "White" : "Black"},
        {"Player 2 Name", first_white ? "Black" : "White"},
        {"Player 1 Rating", first_white ? "WhiteElo" : "BlackElo"},
        {"Player 2 Rating", first_white ? "BlackElo" : "WhiteElo"},
    };
    for (const auto& [from, to] : names)
        if (const std::string* v = out_.tag(from); v && !out_.tag(to)) {
            std::string value = *v; // copied before the vector may grow
            out_.tags.emplace_back(to, std::move(value));
        }
}

void Resolver::put_result_in_colours(const char* kept) {
    flip_results_ = true;
    for (auto& [name, value] : out_.tags)
        if (name == "Result") {
            const std::string written = value, r = result_tag_value(written);
            if (r != "1-0" && r != "0-1") return;
            value = r == "1-0" ? "0-1" : "1-0";
            out_.tags.emplace_back(kept, written); // the loop ends here: the vector may grow
            return;
        }
}

// Game kind and start position. False when the moves cannot be replayed.
bool Resolver::set_up() {
    auto tag_offset = [&](std::string_view name) {
        for (const ast::Tag& t : game_.tags)
            if (t.name == name) return t.offset;
        return game_.offset;
    };
    if (const std::string* type = out_.tag("GameType"); type && !out_.tag("Game")) {
        // PlayOK writes no Game tag: its gomoku is standard gomoku (docs/rules.md 2.3). The tags that
        // say so are added, so that the record says what it is once stored or written.
        int size = 0;
        if (playok_game_type(*type, size)) {
            playok_ = true;
            out_.tags.emplace_back("Game", "Gomoku");
            if (!out_.tag("Rules")) out_.tags.emplace_back("Rules", "standard");
            if (!out_.tag("Size")) out_.tags.emplace_back("Size", std::to_string(size));
        } else {
            // PlayOK's other games (draughts "20,...", reversi...) write the same tags: no Gounki record.
            report(Severity::error, "unknown-game", tag_offset("GameType"),
                   "GameType \"" + *type + "\" is a PlayOK game gounki does not play (its gomoku is 60,N and 61,N); the "
                   "moves are not replayed");
            return false;
        }
    } else if (const std::string* variant = out_.tag("Game") ? nullptr : out_.tag("Variant");
               const std::optional<GameKind> kind = variant ? parse_game_kind(*variant) : std::nullopt) {
        // A Variant tag (as chess sites and multi-game apps write) naming one of the games: its Game tag.
        out_.tags.emplace_back("Game", std::string(game_kind_name(*kind)));
    } else if (!out_.tag("Game") && is_kurnik_renju()) {
        // kurnik, PlayOK's former name, wrote neither Game nor GameType in its Renju records: the
        // RIF opening rule's first pair, a point and a pass, says what they are (docs/rules.md 2.5).
        playok_ = kurnik_renju_ = true;
        out_.tags.emplace_back("Game", "Renju");
        if (!out_.tag("OpeningRule")) out_.tags.emplace_back("OpeningRule", "RIF");
    } else if (const std::string* site = out_.tag("Game") ? nullptr : out_.tag("Site");
               site && lower(*site).find("playok") != std::string::npos) {
        // PlayOK's gomoku records carry a GameType and it hosts no Gounki: a PlayOK record with
        // neither is another of its games (reversi, whose Result is a disc count such as 38-26; mill).
        const std::string* result = out_.tag("Result");
        const std::string counted = result && !is_result_text(result_tag_value(*result))
            ? cat(" (Result \"", *result, "\" looks like a reversi disc count)")
            : std::string();
        report(Severity::error, "unknown-game", tag_offset("Site"),
               cat("a PlayOK record without a GameType tag is none of PlayOK's gomoku games (GameType 60,N or 61,N), and "
                   "PlayOK has no Gounki", counted, "; the moves are not replayed"));
        return false;
    }
    if (const std::string* g = out_.tag("Game")) {
        const auto kind = parse_game_kind(*g);
        if (!kind) {
            std::string known;
            for (const GameInfo& info : games()) known += cat(known.empty() ? "" : ", ", info.name);
            report(Severity::error, "unknown-game", tag_offset("Game"),
                   "unknown game \"" + *g + "\" (known: " + known + "); the moves are not replayed");
            return false;
        }
        if (is_stone_game(*kind)) {
            out_.set_kind(*kind); // the kind's rules until the tags say otherwise
            return set_up_stones();
        }
    }
    const std::string* setup = out_.tag("SetUp");
    const std::string* position = out_.tag("Position");
    if (!position) {
        if (setup && trim(*setup) == "1") {
            report(Severity::error, "missing-position", tag_offset("SetUp"),
                   "SetUp \"1\" without a Position tag: the start position is unknown");
            return false;
        }
        return true;
    }
    auto parsed = Position::from_text(trim(*position));
    if (auto* e = std::get_if<PositionError>(&parsed)) {
        // Point at the offending character inside the value (escapes aside, the value is as written).
        std::uint32_t at = tag_offset("Position");
        for (const ast::Tag& t : game_.tags) {
            if (t.name != "Position") continue;
            const std::size_t quote = src_.slice(t.offset, t.length).find('"');
            const std::size_t lead = t.raw_value.find_first_not_of(" \t\r\n");
            if (quote != std::string_view::npos && lead != std::string::npos)
                at = t.offset + std::uint32_t(quote + 1 + lead + std::size_t(e->column));
            break;
        }
        Diagnostic& d = report(Severity::error, "bad-position", at,
                               "bad Position tag at character " + std::to_string(e->column + 1) + ": " + e->message);
        d.written = *position;
        return false;
    }
    if (!setup || trim(*setup) != "1")
        report(Severity::warning, "missing-setup", tag_offset("Position"),
               "a Position tag without SetUp \"1\"; the position is used");
    out_.start = std::get<Position>(parsed);
    set_up_ = !(out_.start.as_gounki() == initial_position());
    black_first_ = out_.start.side_to_move() == Color::black;
    return true;
}

void Resolver::read_players(const ast::TableHeader& h) {
    if (players_read_) return;
    players_read_ = true;
    std::vector<std::string> names;
    for (const std::string& c : h.cells) {
        const std::string l = lower(c);
        if (l.empty() || l == "#" || l == "move" || l == "moves" || l == "no" || l == "no." || l == "n°" ||
            l.find_first_not_of("-:.") == std::string::npos)
            continue;
        // A third column for notes (as the Wikipedia article's example game has) names no player.
        if (l == "notes" || l == "note" || l == "comments" || l == "comment" || l == "remarks" || l == "remarques" ||
            l == "commentaires")
            continue;
        names.push_back(c);
    }
    if (names.size() != 2) return;
    auto generic = [](const std::string& n, std::string_view label) { return lower(n) == label; };
    if (!out_.tag("White") && !generic(names[0], "white")) out_.tags.emplace_back("White", names[0]);
    if (!out_.tag("Black") && !generic(names[1], "black")) out_.tags.emplace_back("Black", names[1]);
}

void Resolver::check_status_tag() {
    for (const ast::Tag& t : game_.tags) {
        if (t.name != "Status") continue;
        std::string value;
        for (char c : out_.tag("Status") ? *out_.tag("Status") : std::string())
            value += char(std::tolower(static_cast<unsigned char>(c)));
        if (value == "partial") {
            main_cut_ = true;
            report(Severity::error, "marked-partial", t.offset,
                   "the record is marked partial (Status tag): its moves stop where the game broke");
        } else if (value == "invalid") {
            report(Severity::error, "marked-invalid", t.offset, "the record is marked invalid (Status tag)");
        }
        return;
    }
}

std::string Resolver::in_colours(std::string_view r) const {
    if (flip_results_ && (r == "1-0" || r == "0-1")) return r == "1-0" ? "0-1" : "1-0";
    return std::string(r);
}

std::string Resolver::stated_result() const {
    if (game_.result.value != ast::Result::none) return in_colours(result_text(game_.result.value));
    const std::string* tag = out_.tag("Result"); // put in colours already (put_result_in_colours)
    return tag && is_result_text(result_tag_value(*tag)) ? result_tag_value(*tag) : "*";
}

void Resolver::check_result() {
    const std::string* tag = out_.tag("Result");
    std::uint32_t tag_at = game_.offset;
    for (const ast::Tag& t : game_.tags)
        if (t.name == "Result") {
            tag_at = t.offset;
            break;
        }
    std::string tag_result;
    if (tag) {
        tag_result = result_tag_value(*tag); // a PlayOK value is read already (apply_playok)
        if (!is_result_text(tag_result)) {
            report(Severity::warning, "bad-result-tag", tag_at,
                   "Result tag \"" + *tag + "\" is not 1-0, 0-1, 1/2-1/2 or *; ignored");
            tag_result.clear();
        }
    }
    // Who won on the board, when the main line was read to its end.
    const bool over = !main_cut_ && main_end_.game_over();
    const Outcome outcome = main_end_.outcome();
    const std::string_view winner = over ? outcome_text(outcome) : "";

    const bool written = game_.result.value != ast::Result::none;
    std::uint32_t at = tag ? tag_at : game_.offset;
    if (written) {
        at = game_.result.offset;
        out_.result = in_colours(result_text(game_.result.value));
        out_.result_written = true;
        if (!tag_result.empty() && tag_result != out_.result)
            report(Severity::error, "result-mismatch", at,
                   "the game ends with " + out_.result + " but its Result tag says " + tag_result);
    } else {
        out_.result = !tag_result.empty() ? tag_result : over ? std::string(winner) : "*";
        if (!main_cut_)
            report(Severity::warning, "no-result", std::max(last_offset_, game_.offset + game_.length),
                   "the game has no termination marker (1-0, 0-1, 1/2-1/2 or *); read as " + out_.result);
    }
    if (!over || out_.result == winner) return; // open: a resignation or unfinished; or agreed
    const std::string who = outcome == Outcome::white_wins ? "White" : "Black";
    const std::string how = end_ply_ >= 0 ? " with " + end_text_ : " already in the start position";
    const std::string what = outcome == Outcome::draw ? "the board is full and the game drawn" : who + " won" + how;
    if (out_.result == "*") {
        report(Severity::warning, "result-incomplete", at, cat("the result is * but ", what, " (write ", winner, ")"));
    } else if (out_.result != winner) {
        report(Severity::error, "result-contradicts", at,
               "the result " + out_.result + " contradicts the final position: " + what);
    }
}

} // namespace gounki::parser::resolve_detail
