#pragma once
// What the record fuzzer checks on every input, shared with the regression test that replays its
// findings (tests/parser_test.cpp): read every game, write it (in each Gounki notation), read it
// again, and compare; and the
// web-text pass (parser/web_text.hpp) keeps the length and the line ends.

#include <sstream>
#include <string>
#include <string_view>

#include "parser/reader.hpp"
#include "parser/sgf/sgf.hpp"
#include "parser/web_text.hpp"
#include "parser/writer.hpp"

namespace gounki::fuzz {

inline bool same_moves(const parser::Line& a, const parser::Line& b) {
    if (a.plies.size() != b.plies.size()) return false;
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        if (a.plies[i].move != b.plies[i].move || a.plies[i].variations.size() != b.plies[i].variations.size()) return false;
        for (std::size_t v = 0; v < a.plies[i].variations.size(); ++v)
            if (!same_moves(a.plies[i].variations[v], b.plies[i].variations[v])) return false;
    }
    return true;
}

// "" when every game of `data` survives a write and a second read; else what went wrong.
inline std::string check_records(std::string_view data) {
    { // The web-text pass keeps the length and every line end, whatever the bytes.
        std::string web;
        std::vector<parser::WebTextNote> notes;
        parser::normalize_web_text(data, web, notes);
        if (web.size() != data.size()) return "web-text pass changed the length";
        for (std::size_t i = 0; i < data.size(); ++i)
            if (data[i] == '\n' && web[i] != '\n') return "web-text pass lost a line end";
    }
    std::istringstream in{std::string(data)};
    parser::RecordReader reader(in, "fuzz");
    reader.set_max_game_bytes(4096); // small, so that the oversized-game path is reached too
    parser::GameRecord game;
    for (int i = 0; i < 64; ++i) {
        const bool skip = i % 4 == 3; // every fourth game is skipped, not replayed
        if (!(skip ? reader.skip(&game) : reader.next(game))) break;
        if (skip) continue;
        const std::string text = parser::write_record(game);
        const auto again = parser::read_records(text, "rewritten");
        const std::string where = "game " + std::to_string(game.number) + ": ";
        if (again.size() != 1) return where + "rewritten as " + std::to_string(again.size()) + " games";
        if (!same_moves(game.main, again[0].main)) return where + "moves differ after a write and a read";
        if (again[0].result != game.result) return where + "result differs after a write and a read";
        if (!(again[0].start == game.start)) return where + "start position differs after a write and a read";
        if (game.status == parser::GameStatus::valid && again[0].status != parser::GameStatus::valid)
            return where + "valid game rewritten as an invalid one";
        if (game.is_stone_game()) continue;
        // The other notations of Gounki moves: written, then read with that notation forced.
        for (Notation n : {Notation::official, Notation::lc4}) {
            std::istringstream written(parser::write_record(game, n));
            parser::RecordReader other(written, "rewritten");
            other.set_notation(n);
            parser::GameRecord back;
            const std::string name(notation_name(n));
            if (!other.next(back)) return where + "nothing read back from the " + name + " notation";
            if (!same_moves(game.main, back.main)) return where + "moves differ after a write and a read in " + name;
            if (!(back.start == game.start)) return where + "start differs after a write and a read in " + name;
        }
    }
    reader.take_file_diagnostics();
    // The same bytes as SGF: every game read must write and read back with the same moves.
    for (const parser::GameRecord& g : parser::read_sgf(data, "fuzz.sgf")) {
        const auto again = parser::read_records(parser::write_record(g), "rewritten");
        const std::string where = "SGF game " + std::to_string(g.number) + ": ";
        if (again.size() != 1) return where + "rewritten as " + std::to_string(again.size()) + " games";
        if (!same_moves(g.main, again[0].main)) return where + "moves differ after a write and a read";
        if (g.status == parser::GameStatus::valid && again[0].status != parser::GameStatus::valid)
            return where + "valid game rewritten as an invalid one";
    }
    return {};
}

} // namespace gounki::fuzz
