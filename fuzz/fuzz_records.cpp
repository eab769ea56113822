// libFuzzer target: any bytes as a record file. Every game is read through the streaming reader
// (splitter, encoding, grammar, replay), written canonically and read again; the rewritten game
// must give back the same moves. A failed check traps, so the fuzzer keeps the input.
#include <cstdint>
#include <sstream>
#include <string>

#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;

namespace {

void check(bool ok) {
    if (!ok) __builtin_trap();
}

bool same_moves(const Line& a, const Line& b) {
    if (a.plies.size() != b.plies.size()) return false;
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        if (a.plies[i].move != b.plies[i].move || a.plies[i].variations.size() != b.plies[i].variations.size())
            return false;
        for (std::size_t v = 0; v < a.plies[i].variations.size(); ++v)
            if (!same_moves(a.plies[i].variations[v], b.plies[i].variations[v])) return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    RecordReader reader(in, "fuzz");
    reader.set_max_game_bytes(4096); // small, so that the oversized-game path is reached too
    GameRecord game;
    for (int i = 0; i < 64; ++i) {
        const bool got = i % 4 == 3 ? reader.skip(&game) : reader.next(game);
        if (!got) break;
        if (i % 4 == 3) continue;
        const std::string text = write_record(game);
        const auto again = read_records(text, "rewritten");
        check(again.size() == 1);
        check(same_moves(game.main, again[0].main));
        check(again[0].result == game.result);
        check(again[0].start == game.start);
        if (game.status == GameStatus::valid && game.kind == GameKind::gounki) check(again[0].status == GameStatus::valid);
    }
    reader.take_file_diagnostics();
    return 0;
}
