#include "db/analysis_store.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <cstdio>
#include <ctime>

#include "analysis/curve.hpp"
#include "db/codec.hpp"

namespace gounki::db {

const char analysis_schema_sql_v2[] = R"sql(
-- Migration 2: stored judgements of `gounki analyze`.
-- One row per game and settings text (analysis_settings_text in db/analysis_store.cpp): rerunning
-- with the same settings finds the row and skips the game.
CREATE TABLE analysis_settings (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
) STRICT;

-- plies: per judged ply, varints (db/analysis_store.cpp encode_judgement): played and best move
-- codes (codec.hpp move_code), zigzag best and played scores, zigzag win_in of both, the mover's
-- expected results before and after as 0..65535, the verdict, then the best line's length and moves.
CREATE TABLE analyses (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    settings_id    INTEGER NOT NULL REFERENCES analysis_settings (id),
    created        TEXT NOT NULL,
    nodes          INTEGER NOT NULL,
    white_accuracy REAL NOT NULL,
    black_accuracy REAL NOT NULL,
    plies          BLOB NOT NULL,
    PRIMARY KEY (game_id, settings_id)
) WITHOUT ROWID, STRICT;
CREATE INDEX analyses_settings ON analyses (settings_id);
PRAGMA user_version = 2;
)sql";

const char analysis_engine_sql_v5[] = R"sql(
-- Migration 5: judgements by an external Gomocup engine (gounki analyze --engine). The engine's
-- name and version as its ABOUT answer gave them; NULL for gounki's own engine. The settings text
-- names the engine, its command and its time per move as well.
ALTER TABLE analysis_settings ADD COLUMN engine TEXT;
PRAGMA user_version = 5;
)sql";

namespace {

// " book=N" for a book threshold, nothing without one: judgements stored before book moves existed
// keep meaning "no book". " turned": the book counted a stone position's turns and mirror images
// together; a stone game judged before, with book=N alone, is judged again.
std::string book_text(const analysis::JudgeSettings& s) {
    return s.book > 0 ? " book=" + std::to_string(s.book) + (s.book_turned ? " turned" : "") : std::string();
}

} // namespace

std::string engine_settings_text(const std::string& engine, const std::string& command, int turn_ms, std::uint64_t max_node,
                                 const analysis::JudgeSettings& s) {
    char buf[200];
    const std::string nodes = max_node ? " nodes=" + std::to_string(max_node) : std::string();
    std::snprintf(buf, sizeof buf, " time=%d%s curve=%.4f inaccuracy=%.3f mistake=%.3f blunder=%.3f", turn_ms, nodes.c_str(),
                  s.curve_scale > 0 ? s.curve_scale : analysis::default_stone_curve_scale, s.inaccuracy, s.mistake, s.blunder);
    return "engine='" + engine + "' command='" + command + "'" + buf + book_text(s);
}

std::string analysis_settings_text(const analysis::JudgeSettings& s) {
    char buf[256];
    // method=backward: the plies judged from the last back, the played move searched first, the
    // early stop (analysis/judge.cpp); judgements stored before it, without the word, are judged again.
    // stop=I/D: the early stop after I stable iterations from depth D (I = 0: none).
    // confirm=F: a graded verdict searched again with F times the budget (0: not; judgements stored
    // before it, without the word, are judged again).
    std::snprintf(buf, sizeof buf,
                  "depth=%d nodes=%llu curve=%.4f inaccuracy=%.3f mistake=%.3f blunder=%.3f verify=%d method=backward stop=%d/%d "
                  "confirm=%d",
                  s.limits.depth, static_cast<unsigned long long>(s.limits.nodes),
                  s.curve_scale > 0 ? s.curve_scale : analysis::default_curve_scale, s.inaccuracy, s.mistake, s.blunder,
                  s.verify_extra_plies, s.stable_iterations, s.stop_min_depth, s.confirm_factor > 1 ? s.confirm_factor : 0);
    return buf + book_text(s);
}

namespace {

std::uint64_t zigzag(std::int64_t v) { return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63); }
std::int64_t unzigzag(std::uint64_t v) { return std::int64_t(v >> 1) ^ -std::int64_t(v & 1); }
std::uint64_t fixed16(double x) { return std::uint64_t(std::lround(std::clamp(x, 0.0, 1.0) * 65535.0)); }

} // namespace

std::vector<std::uint8_t> encode_judgement(const analysis::GameJudgement& j) {
    std::vector<std::uint8_t> out;
    put_varint(out, j.plies.size());
    put_varint(out, j.nodes);
    for (const analysis::PlyJudgement& p : j.plies) {
        put_varint(out, move_code(p.played));
        put_varint(out, move_code(p.best));
        put_varint(out, zigzag(p.best_score));
        put_varint(out, zigzag(p.played_score));
        put_varint(out, zigzag(p.best_win_in));
        put_varint(out, zigzag(p.played_win_in));
        put_varint(out, fixed16(p.expected_best));
        put_varint(out, fixed16(p.expected_played));
        put_varint(out, std::uint64_t(p.verdict));
        put_varint(out, p.pv.size());
        for (Move m : p.pv) put_varint(out, move_code(m));
    }
    for (const analysis::SideSummary& s : j.sides) {
        put_varint(out, std::uint64_t(s.moves));
        // The graded verdicts' counts only (as before book moves existed): the book count is the
        // number of book plies, counted again when read.
        for (int c = 0; c < analysis::graded_verdict_count; ++c) put_varint(out, std::uint64_t(s.counts[c]));
        put_varint(out, std::uint64_t(std::lround(s.accuracy * 100.0)));
    }
    std::vector<std::uint64_t> unscored;
    for (const analysis::PlyJudgement& p : j.plies)
        if (!p.scored) unscored.push_back(std::uint64_t(p.ply));
    const int book = j.sides[0].counts[int(analysis::Verdict::book)] + j.sides[1].counts[int(analysis::Verdict::book)];
    if (!unscored.empty() || book > 0) {
        put_varint(out, unscored.size());
        for (std::uint64_t i : unscored) put_varint(out, i);
    }
    if (book > 0)
        for (const analysis::SideSummary& s : j.sides) put_varint(out, std::uint64_t(s.counts[int(analysis::Verdict::book)]));
    return out;
}

std::optional<analysis::GameJudgement> decode_judgement(std::span<const std::uint8_t> blob) {
    const std::uint8_t* p = blob.data();
    const std::uint8_t* end = p + blob.size();
    std::uint64_t v = 0;
    auto next = [&](std::uint64_t& out) { return get_varint(p, end, out); };
    analysis::GameJudgement j;
    std::uint64_t count = 0;
    if (!next(count) || count > 100000 || !next(j.nodes)) return std::nullopt;
    j.plies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        analysis::PlyJudgement& pj = j.plies[i];
        pj.ply = int(i);
        pj.side = i % 2 == 0 ? Color::white : Color::black; // corrected by the caller for set-up games
        std::uint64_t f[10];
        for (auto& x : f)
            if (!next(x)) return std::nullopt;
        pj.played = move_from_code(f[0]);
        pj.best = move_from_code(f[1]);
        pj.best_score = analysis::Score(unzigzag(f[2]));
        pj.played_score = analysis::Score(unzigzag(f[3]));
        pj.best_win_in = int(unzigzag(f[4]));
        pj.played_win_in = int(unzigzag(f[5]));
        pj.expected_best = double(f[6]) / 65535.0;
        pj.expected_played = double(f[7]) / 65535.0;
        if (f[8] >= std::uint64_t(analysis::verdict_count)) return std::nullopt;
        pj.verdict = analysis::Verdict(f[8]);
        if (f[9] > 256) return std::nullopt;
        pj.pv.resize(f[9]);
        for (Move& m : pj.pv) {
            if (!next(v)) return std::nullopt;
            m = move_from_code(v);
        }
    }
    for (analysis::SideSummary& s : j.sides) {
        if (!next(v)) return std::nullopt;
        s.moves = int(v);
        for (int c = 0; c < analysis::graded_verdict_count; ++c) {
            if (!next(v)) return std::nullopt;
            s.counts[c] = int(v);
        }
        if (!next(v)) return std::nullopt;
        s.accuracy = double(v) / 100.0;
    }
    const auto book = std::uint64_t(std::count_if(
        j.plies.begin(), j.plies.end(), [](const analysis::PlyJudgement& pj) { return pj.verdict == analysis::Verdict::book; }));
    if (p != end) { // the plies an external engine did not grade (none is possible with book plies)
        std::uint64_t n = 0;
        if (!next(n) || (n == 0 && book == 0) || n > count) return std::nullopt;
        for (std::uint64_t k = 0; k < n; ++k) {
            if (!next(v) || v >= count) return std::nullopt;
            j.plies[std::size_t(v)].scored = false;
        }
    }
    if (book > 0) { // each side's book moves
        std::uint64_t sum = 0;
        for (analysis::SideSummary& s : j.sides) {
            if (!next(v) || v > book) return std::nullopt;
            s.counts[int(analysis::Verdict::book)] = int(v);
            sum += v;
        }
        if (sum != book) return std::nullopt;
    }
    if (p != end) return std::nullopt;
    return j;
}

bool AnalysisStore::has(std::int64_t game_id, const std::string& settings) {
    Statement st(db_,
                 "SELECT 1 FROM analyses a JOIN analysis_settings s ON s.id = a.settings_id "
                 "WHERE a.game_id = ?1 AND s.text = ?2");
    st.bind(1, game_id).bind(2, settings);
    return st.step();
}

bool AnalysisStore::save(std::int64_t game_id, const std::string& settings, const analysis::GameJudgement& j,
                         const std::string& engine) {
    Statement ins(db_, "INSERT INTO analysis_settings (text, engine) VALUES (?1, NULLIF(?2, '')) ON CONFLICT (text) DO NOTHING");
    ins.bind(1, settings).bind(2, engine).run();
    // A new judgement with the same settings replaces the old one (--force). A game deleted while it
    // was judged gets no row, rather than failing the foreign key.
    Statement st(db_,
                 "INSERT INTO analyses (game_id, settings_id, created, nodes, white_accuracy, black_accuracy, plies) "
                 "SELECT ?1, id, ?7, ?3, ?4, ?5, ?6 FROM analysis_settings WHERE text = ?2 "
                 "AND EXISTS (SELECT 1 FROM games WHERE id = ?1) "
                 "ON CONFLICT (game_id, settings_id) DO UPDATE SET created = excluded.created, nodes = excluded.nodes, "
                 "white_accuracy = excluded.white_accuracy, black_accuracy = excluded.black_accuracy, plies = excluded.plies");
    const std::vector<std::uint8_t> blob = encode_judgement(j);
    // The time of the judgement in UTC, as 'YYYY-MM-DD HH:MM:SS' (what SQLite's datetime('now') gave).
    char created[32];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(created, sizeof created, "%Y-%m-%d %H:%M:%S", &utc);
    st.bind(1, game_id)
        .bind(7, created)
        .bind(2, settings)
        .bind(3, std::int64_t(j.nodes))
        .bind(4, j.sides[0].accuracy)
        .bind(5, j.sides[1].accuracy)
        .bind_blob(6, blob);
    st.run();
    return db_.changes() > 0;
}

std::optional<StoredJudgement> AnalysisStore::load(std::int64_t game_id, const std::string& settings) {
    Statement st(db_,
                 settings.empty() ? "SELECT s.text, a.created, a.plies, coalesce(s.engine, '') FROM analyses a JOIN analysis_settings s ON s.id = "
                                    "a.settings_id WHERE a.game_id = ?1 ORDER BY a.created DESC, a.settings_id DESC LIMIT 1"
                                  : "SELECT s.text, a.created, a.plies, coalesce(s.engine, '') FROM analyses a JOIN analysis_settings s ON s.id = "
                                    "a.settings_id WHERE a.game_id = ?1 AND s.text = ?2");
    st.bind(1, game_id);
    if (!settings.empty()) st.bind(2, settings);
    if (!st.step()) return std::nullopt;
    StoredJudgement out;
    out.game_id = game_id;
    out.settings = st.get_string(0);
    out.created = st.get_string(1);
    out.engine = st.get_string(3);
    auto j = decode_judgement(st.get_blob(2));
    if (!j) throw DbError(11, "the stored analysis of game " + std::to_string(game_id) + " is damaged");
    out.judgement = std::move(*j);
    return out;
}

} // namespace gounki::db
