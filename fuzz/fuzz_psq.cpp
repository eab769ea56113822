// libFuzzer target: any bytes as a Piskvork PSQ file (parser/psq/psq.hpp). The game read must have
// its diagnostics inside the text, and when it is valid Gomoku it must write as PSQ and read back
// with the same moves, result and players (when it names both); a failed check traps, so the fuzzer keeps the input.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/psq/psq.hpp"

namespace {

bool check(std::string_view data) {
    using namespace gounki::parser;
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
