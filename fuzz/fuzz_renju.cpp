// libFuzzer target: any bytes as a RenjuNet database and as a RenLib library (parser/renju/). Every
// diagnostic of a RenjuNet game must lie inside the text, every game's moves must replay by its
// rules up to its status, and a RenLib library is either refused whole or read with games of
// Renju, as lines and as one tree whose variations replay too; a failed check traps, so the fuzzer keeps the input.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/renju/renjunet.hpp"
#include "parser/renju/renlib.hpp"

namespace {

using namespace gounki;
using namespace gounki::parser;

// Every move of `line` from `pos` legal, and every move of its variations from where they start.
bool replays(const Line& line, stones::StonePosition pos, int depth = 0) {
    if (depth > 64) return false; // a record holds no deeper variation
    for (const Ply& p : line.plies) {
        for (const Line& v : p.variations)
            if (v.plies.empty() || !replays(v, pos, depth + 1)) return false;
        if (!pos.is_legal(p.move)) return false;
        stones::StoneUndo undo;
        pos.play(p.move, undo);
    }
    return true;
}
bool replays(const GameRecord& g) { return replays(g.main, g.start.as_stones()); }

bool check(std::string_view data) {
    // Lines as XML counts them: a line ends at LF, CR LF or a lone CR (XML 1.0, 2.11).
    long lines = 1;
    for (std::size_t i = 0; i < data.size(); ++i)
        lines += data[i] == '\n' || (data[i] == '\r' && (i + 1 == data.size() || data[i + 1] != '\n'));
    for (const GameRecord& g : read_renjunet(data, "fuzz.rif")) {
        for (const Diagnostic& d : g.diagnostics)
            if (d.line < 1 || d.line > lines || d.column < 1) return false;
        if (!replays(g)) return false;
    }
    // The same bytes after RenLib's header, so that the tree reader sees them.
    std::string lib("\xFFRenLib\xFF\x03\x00", 10);
    lib += std::string(10, '\xFF');
    lib += data;
    std::vector<Diagnostic> file;
    const auto games = read_renlib(lib, "fuzz.lib", &file);
    if (!games.empty() && !file.empty()) return false; // refused whole, or read
    for (const GameRecord& g : games)
        if (g.kind != GameKind::renju || !replays(g)) return false;
    // As a tree: one game (or none), refused whole exactly when read as lines it is.
    std::vector<Diagnostic> tree_file;
    const auto tree = read_renlib(lib, "fuzz.lib", &tree_file, true);
    if (tree.size() > 1 || tree.size() != (games.empty() ? 0u : 1u) || tree_file.size() != file.size()) return false;
    for (const GameRecord& g : tree)
        if (g.kind != GameKind::renju || !replays(g)) return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!check(std::string_view(reinterpret_cast<const char*>(data), size))) __builtin_trap();
    return 0;
}
