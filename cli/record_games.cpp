#include "cli/record_games.hpp"

#include "cli/command.hpp"
#include "pipeline/read.hpp"

namespace gounki::cli {

bool read_record_games(const std::vector<std::string>& files, std::optional<GameKind> only, long long limit,
                       std::map<GameKind, std::vector<RecordGame>>& out) {
    struct Item {
        GameKind kind = GameKind::gounki;
        RecordGame game;
        bool valid = true;
    };
    pipeline::ReadRequest request;
    request.files = files;
    pipeline::ReadEvents<Item> on;
    on.prepare = [](parser::GameRecord&& r) {
        Item item{r.kind, {r.start, {}, r.file + ":" + std::to_string(r.line)}, r.status == parser::GameStatus::valid};
        for (const parser::Ply& ply : r.main.plies) item.game.moves.push_back(ply.move);
        return item;
    };
    bool ok = true;
    on.game = [&](Item&& item) {
        if (!item.valid) ok = false;
        if (!ok || (only && item.kind != *only)) return;
        std::vector<RecordGame>& games = out[item.kind];
        if (limit == 0 || std::int64_t(games.size()) < limit) games.push_back(std::move(item.game));
    };
    on.diagnostic = [&](const parser::Diagnostic& d) {
        if (d.severity == parser::Severity::error) print_err(parser::format_diagnostic(d) + "\n");
    };
    const pipeline::ReadResult read = pipeline::read_files(request, on);
    return ok && !read.io_errors;
}

} // namespace gounki::cli
