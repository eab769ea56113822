// libFuzzer target: any bytes as a Piskvork PSQ file (parser/psq/psq.hpp) and as a Gomocup opening
// list (parser/psq/openings.hpp). The PSQ game read must have its diagnostics inside the text, and
// when it is valid Gomoku it must write as PSQ and read back with the same moves, result and players
// (when it names both). Read as an opening list under three names (three boards and rules), every
// game must come from a line of its own that holds more than blanks, its diagnostics must point into
// that line, its game and board must be the name's, and its stones must replay by its rules up to
// its status; a failed check traps, so the fuzzer keeps the input.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parser/psq/openings.hpp"
#include "parser/psq/psq.hpp"

namespace {

using namespace gounki;
using namespace gounki::parser;

// Every stone of the game's main line legal from its start, in order.
bool replays(const GameRecord& g) {
    stones::StonePosition pos = g.start.as_stones();
    for (const Ply& p : g.main.plies) {
        if (!pos.is_legal(p.move)) return false;
        stones::StoneUndo undo;
        pos.play(p.move, undo);
    }
    return true;
}

// The lines of `data` that hold more than blanks (as the reader splits them: at LF, a CR before it
// dropped), 1 based.
std::vector<int> lines_with_text(std::string_view data) {
    std::vector<int> out;
    int number = 0;
    for (std::size_t at = 0; at <= data.size();) {
        std::size_t end = data.find('\n', at);
        if (end == std::string_view::npos) end = data.size();
        std::string_view line = data.substr(at, end - at);
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") != std::string_view::npos) out.push_back(number);
        at = end + 1;
    }
    return out;
}

bool check_openings(std::string_view data) {
    std::string_view text = data.starts_with("\xEF\xBB\xBF") ? data.substr(3) : data;
    const std::vector<int> lines = lines_with_text(text);
    struct Name {
        const char* file;
        GameKind kind;
        int size;
    };
    for (const Name& name : {Name{"openings_freestyle15.txt", GameKind::gomoku, 15}, Name{"openings_freestyle.txt", GameKind::gomoku, 20},
                             Name{"openings_renju.txt", GameKind::renju, 15}}) {
        std::vector<Diagnostic> file;
        const std::vector<GameRecord> games = read_openings(data, name.file, &file);
        if (games.size() > lines.size()) return false;
        if (!file.empty() && data.size() < OpeningsReader::max_bytes) return false;
        for (std::size_t i = 0; i < games.size(); ++i) {
            const GameRecord& g = games[i];
            if (g.line != lines[i] || g.kind != name.kind || g.start.as_stones().size() != name.size) return false;
            for (const Diagnostic& d : g.diagnostics)
                if (d.line != g.line || d.column < 1) return false;
            if (!replays(g) || (g.status == GameStatus::valid && g.error_count() > 0)) return false;
        }
    }
    return true;
}

bool check(std::string_view data) {
    if (!check_openings(data)) return false;
    const GameRecord g = read_psq(data, "fuzz.psq");
    const long lines = long(std::count(data.begin(), data.end(), '\n')) + 1;
    for (const Diagnostic& d : g.diagnostics)
        if (d.line < 1 || d.line > lines || d.column < 1) return false;
    if (g.status != GameStatus::valid || !psq_cannot_hold(g).empty()) return true;
    const GameRecord back = read_psq(write_psq(g), "rewritten.psq");
    if (back.main.plies.size() != g.main.plies.size() || back.result != g.result) return false;
    for (std::size_t i = 0; i < g.main.plies.size(); ++i)
        if (back.main.plies[i].move != g.main.plies[i].move) return false;
    // The players (a file naming one engine only is written with "?" for the other).
    if (g.tag("Black") && g.tag("White"))
        for (const char* tag : {"Black", "White"})
            if (!back.tag(tag) || *back.tag(tag) != *g.tag(tag)) return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!check(std::string_view(reinterpret_cast<const char*>(data), size))) __builtin_trap();
    return 0;
}
