// Test helpers for records read: golden files, diagnostics and tags (declared in support.hpp).
#include <algorithm>
#include <sstream>

#include "tests/catch.hpp"
#include "tests/support.hpp"

namespace gounki::test {

const parser::Diagnostic* find_code(const parser::GameRecord& g, std::string_view code) {
    for (const parser::Diagnostic& d : g.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

void check_diagnostic(const parser::GameRecord& g, std::string_view code, int line, int column, std::string_view text) {
    INFO("diagnostic " << code << " at " << line << ":" << column);
    const parser::Diagnostic* d = find_code(g, code);
    REQUIRE(d);
    CHECK(d->line == line);
    CHECK(d->column == column);
    CHECK(d->message.find(text) != std::string::npos);
}

bool same_notes(const parser::Line& a, const parser::Line& b) {
    if (a.comments != b.comments || a.plies.size() != b.plies.size()) return false;
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        const parser::Ply &x = a.plies[i], &y = b.plies[i];
        if (x.move != y.move || x.nags != y.nags || x.comments != y.comments || x.variations.size() != y.variations.size())
            return false;
        for (std::size_t k = 0; k < x.variations.size(); ++k)
            if (!same_notes(x.variations[k], y.variations[k])) return false;
    }
    return true;
}

parser::GameRecord only_game(std::vector<parser::GameRecord> games) {
    REQUIRE(games.size() == 1);
    return std::move(games.front());
}

std::vector<std::string> point_names(const parser::Line& line) {
    std::vector<std::string> out;
    for (const parser::Ply& ply : line.plies) out.push_back(stones::point_name(ply.move.point()));
    return out;
}

std::string tag_of(const parser::GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v ? *v : "<none>";
}

std::string describe_games(parser::GameSource& reader, bool tags) {
    REQUIRE(reader.ok());
    std::ostringstream out;
    auto diag = [&](const parser::Diagnostic& d, const char* prefix) {
        out << prefix << d.line << ':' << d.column << ' ' << parser::severity_name(d.severity) << ' ' << d.code << '\n';
    };
    parser::GameRecord g;
    while (reader.next(g)) {
        for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diag(d, "file ");
        out << "game " << g.number << " line " << g.line << ": " << parser::status_name(g.status) << ", " << g.main.plies.size()
            << " plies, result " << g.result << '\n';
        if (tags) {
            out << "  tags:";
            for (const auto& [name, value] : g.tags) out << ' ' << name << '=' << value;
            out << '\n';
        }
        for (const parser::Diagnostic& d : g.diagnostics) diag(d, "  ");
    }
    for (const parser::Diagnostic& d : reader.take_file_diagnostics()) diag(d, "file ");
    return out.str();
}

std::string without_comment_lines(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line))
        if (line.empty() || line[0] != '#') out += line + '\n';
    return out;
}

int check_golden_files(const std::filesystem::path& dir, std::initializer_list<std::string_view> extensions,
                       const std::function<std::string(const std::filesystem::path&)>& describe) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) continue;
        const std::filesystem::path expected = std::filesystem::path(entry.path()).replace_extension(".expected");
        DYNAMIC_SECTION(entry.path().filename().string()) {
            REQUIRE(std::filesystem::exists(expected));
            CHECK(describe(entry.path()) == without_comment_lines(slurp(expected)));
        }
        ++files;
    }
    return files;
}

} // namespace gounki::test
