// parse_bench: throughput of reading game records (parse + replay + checks) on one thread.
//
//   parse_bench [--games N] [--seed S] [--plies P] [--notation wikipedia|official|lc4]
//               [--layout pgn|table|tabs|html|typographic] [--write FILE] [--read FILE] [--skip]
//
// Generates N random legal games (std::mt19937 with seed S, each played to its end through core,
// or cut after P plies with the result `*`) as a record collection in memory, written canonically
// with seven tag pairs, then reads it back with RecordReader and prints games/s and MB/s. --write
// saves the collection (for `gounki validate --stats FILE`); --read times an existing file instead
// of a generated one; --skip parses without replaying. --notation writes the moves in another
// notation; --layout writes each game as people paste them: a Markdown table under its tags, a
// tab-separated table (what a browser copies), an HTML <table>, or the record with typographic
// dashes and quotes.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "bench/read_clock.hpp"
#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"
#include "core/text.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;

namespace {

enum class Layout { pgn, table, tabs, html, typographic };
constexpr Named<Layout> layout_names[] = {{Layout::pgn, "pgn"},
                                          {Layout::table, "table"},
                                          {Layout::tabs, "tabs"},
                                          {Layout::html, "html"},
                                          {Layout::typographic, "typographic"}};

// The game's moves in `notation`, one text per ply.
std::vector<std::string> move_texts(const GameRecord& g, Notation notation) {
    std::vector<std::string> out;
    Position pos = g.start.as_gounki();
    UndoRecord undo;
    for (const Ply& p : g.main.plies) {
        out.push_back(move_to_text(pos, p.move, notation));
        pos.do_move(p.move, undo);
    }
    return out;
}

void write_table(std::string& text, const GameRecord& g, Notation notation, Layout layout) {
    const std::vector<std::string> moves = move_texts(g, notation);
    const std::string& white = *g.tag("White");
    const std::string& black = *g.tag("Black");
    if (layout == Layout::html) {
        text += "<table>\n<tr><th></th><th>" + white + "</th><th>" + black + "</th></tr>\n";
        for (std::size_t i = 0; i < moves.size(); i += 2)
            text += "<tr><td>" + std::to_string(i / 2 + 1) + ".</td><td>" + moves[i] + "</td><td>" +
                (i + 1 < moves.size() ? moves[i + 1] : "") + "</td></tr>\n";
        text += "<tr><td colspan=\"3\">" + g.result + "</td></tr>\n</table>\n";
        return;
    }
    for (const auto& [name, value] : g.tags) text += "[" + name + " \"" + value + "\"]\n";
    text += '\n';
    const bool tabs = layout == Layout::tabs;
    text += tabs ? "Move\t" + white + "\t" + black + "\n" : "| Move | " + white + " | " + black + " |\n|---|---|---|\n";
    for (std::size_t i = 0; i < moves.size(); i += 2) {
        const std::string number = std::to_string(i / 2 + 1);
        const std::string second = i + 1 < moves.size() ? moves[i + 1] : "";
        text +=
            tabs ? number + "\t" + moves[i] + "\t" + second + "\n" : "| " + number + ". | " + moves[i] + " | " + second + " |\n";
    }
    text += g.result + "\n\n";
}

// The record as a word processor makes it: curly quotes around tag values, en dashes in moves.
void write_typographic(std::string& text, const GameRecord& g, Notation notation) {
    const std::string plain = write_record(g, notation);
    bool tag_line = false, line_start = true, in_value = false;
    for (char c : plain) {
        if (line_start) tag_line = c == '[';
        line_start = c == '\n';
        if (tag_line && c == '"') {
            text += in_value ? "\u201D" : "\u201C";
            in_value = !in_value;
        } else if (!tag_line && c == '-' && !text.empty() && text.back() != '1' && text.back() != '0') {
            text += "\u2013"; // an en dash in moves (results keep their hyphen)
        } else {
            text += c;
        }
    }
}

std::string generate(int games, unsigned seed, int max_plies, double& plies_per_game, Notation notation, Layout layout) {
    std::mt19937 rng(seed);
    std::string text;
    long plies = 0;
    GameRecord g;
    for (int i = 0; i < games; ++i) {
        g.clear();
        g.tags = {{"Event", "Random games"},        {"Site", "parse_bench"}, {"Date", "2026.01.01"},
                  {"Round", std::to_string(i + 1)}, {"White", "Random A"},   {"Black", "Random B"}};
        Position pos = Position::start();
        UndoRecord undo;
        while (!pos.game_over() && (max_plies == 0 || int(g.main.plies.size()) < max_plies)) {
            MoveList moves;
            generate_moves(pos, moves);
            const Move m = moves[int(rng() % unsigned(moves.size()))];
            g.main.plies.emplace_back(m);
            pos.do_move(m, undo);
        }
        plies += long(g.main.plies.size());
        g.result = !pos.game_over() ? "*" : pos.outcome() == Outcome::white_wins ? "1-0" : "0-1";
        switch (layout) {
        case Layout::pgn: text += write_record(g, notation); break;
        case Layout::typographic: write_typographic(text, g, notation); break;
        default: write_table(text, g, notation, layout); break;
        }
    }
    plies_per_game = double(plies) / games;
    return text;
}

} // namespace

int main(int argc, char** argv) {
    int games = 100000;
    unsigned seed = 1;
    int max_plies = 0;
    std::string write_path, read_path;
    bool skip = false;
    Notation notation = Notation::wikipedia;
    const char* usage = "parse_bench [--games N] [--seed S] [--plies P] [--notation wikipedia|official|lc4] "
                        "[--layout pgn|table|tabs|html|typographic] [--write FILE] [--read FILE] [--skip]";
    std::string notation_name, layout_name = "pgn";
    for (bench::Args a(argc, argv); a.next();)
        if (!a.value("--games", games) && !a.value("--seed", seed) && !a.value("--plies", max_plies) &&
            !a.value("--write", write_path) && !a.value("--read", read_path) && !a.flag("--skip", skip) &&
            !a.value("--notation", notation_name) && !a.value("--layout", layout_name))
            return bench::Args::usage(usage);
    if (!notation_name.empty() && (!parse_notation(notation_name, notation) || notation == Notation::automatic))
        return bench::Args::usage(usage);
    const std::optional<Layout> layout = named(layout_names, layout_name);
    if (!layout) return std::fprintf(stderr, "parse_bench: unknown layout '%s'\n", layout_name.c_str()), 2;
    std::string text;
    double plies = 0;
    if (read_path.empty()) {
        text = generate(games, seed, max_plies, plies, notation, *layout);
        std::printf("generated %d random games, %.1f plies per game, %.1f MB\n", games, plies, text.size() / 1e6);
        if (!write_path.empty()) {
            std::ofstream(write_path, std::ios::binary) << text;
            std::printf("written to %s\n", write_path.c_str());
        }
    } else {
        std::ifstream f(read_path, std::ios::binary);
        std::ostringstream s;
        s << f.rdbuf();
        text = s.str();
    }
    std::istringstream in(text);
    RecordReader reader(in, "bench");
    GameRecord g;
    bench::ReadClock clock;
    while (skip ? reader.skip(&g) : reader.next(g)) clock.count(g);
    clock.report(skip ? "skipped (syntax only)" : "read", double(text.size()));
    return clock.valid == clock.read ? 0 : 1;
}
