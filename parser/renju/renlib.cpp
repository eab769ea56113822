// RenLib libraries (renlib.hpp): the bytes into a tree of nodes (syntax, with the byte of the first
// fault), then one game per line of the tree, replayed by the Renju rules.

#include "parser/renju/renlib.hpp"

#include <cstdio>
#include <istream>
#include <sstream>

#include "core/stones/position.hpp"
#include "parser/encoding.hpp"
#include "parser/error_handler.hpp"
#include "parser/renju/stone_line.hpp"

namespace gounki::parser {

namespace {

constexpr unsigned down = 0x80, right = 0x40, old_comment = 0x20, comment = 0x08, no_move = 0x02, extension = 0x01,
                   board_text = 0x100;
constexpr std::size_t header_size = 20;
constexpr int size = 15;

struct Node {
    int point = stones::no_point; // no_point: the root
    int parent = -1;
    bool move = false; // a stone (not the root, not a board text)
    bool move_below = false; // a move somewhere below it
    std::vector<int> children; // the nodes right below it, in file order
    std::uint32_t offset = 0;
    std::vector<std::string> comments;
};

std::string hex(unsigned byte) {
    char b[8];
    std::snprintf(b, sizeof b, "0x%02X", byte & 0xFFu);
    return b;
}

// Text in the Windows code page or UTF-8, as UTF-8.
std::string as_utf8(std::string_view text) {
    std::size_t bad = 0;
    if (valid_utf8(text, bad)) return std::string(text);
    std::string out;
    cp1252_to_utf8(text, out);
    return out;
}

} // namespace

struct RenLibReader::Tree {
    std::vector<Node> nodes; // nodes[0]: the root
    std::string fault; // the file's first fault, with its byte
};

namespace {

class TreeReader {
public:
    TreeReader(std::string_view bytes, RenLibReader::Tree& tree) : b_(bytes), t_(tree) {}
    bool run();

private:
    bool fail(std::size_t at, std::string why) {
        t_.fault = "byte " + std::to_string(at) + ": " + std::move(why);
        return false;
    }
    // A text: pairs of bytes up to a pair holding a 0.
    bool text(std::string& out, const char* what);
    bool node(std::vector<int>& path, std::vector<std::size_t>& kept);

    std::string_view b_;
    RenLibReader::Tree& t_;
    std::size_t at_ = header_size;
};

bool TreeReader::text(std::string& out, const char* what) {
    const std::size_t from = at_;
    for (;;) {
        if (b_.size() - at_ < 2)
            return fail(from, std::string("the ") + what + " starting here is cut short: the file ends at byte " +
                                  std::to_string(b_.size()) + " before its end (a 0 byte)");
        const char a = b_[at_], c = b_[at_ + 1];
        at_ += 2;
        if (a == 0) return true;
        out += a;
        if (c == 0) return true;
        out += c;
    }
}

bool TreeReader::node(std::vector<int>& path, std::vector<std::size_t>& kept) {
    const std::size_t from = at_;
    if (b_.size() - at_ < 2) return fail(from, "a node is 2 bytes; the file ends after 1 (cut short)");
    const auto p = static_cast<unsigned char>(b_[at_]);
    unsigned flags = static_cast<unsigned char>(b_[at_ + 1]);
    at_ += 2;
    if (flags & extension) {
        if (b_.size() - at_ < 2) return fail(from, "the node's 2 extension bytes are cut short by the end of the file");
        flags |= ((unsigned(static_cast<unsigned char>(b_[at_])) << 8) | static_cast<unsigned char>(b_[at_ + 1])) << 8;
        at_ += 2;
    }
    int point = stones::no_point;
    if (p != 0) {
        const int x = p & 0x0F, y = p >> 4;
        if (x < 1 || y > size - 1) return fail(from, "the point byte " + hex(p) + " is no point of the 15x15 board");
        point = stones::make_point(x - 1, size - 1 - y);
    }
    std::string one_line, texts;
    if ((flags & (comment | old_comment)) && !text(one_line, "comment")) return false;
    if ((flags & board_text) && !text(texts, "board text")) return false;
    const bool root = from == header_size && p == 0;
    const bool stone = !root && !(flags & no_move);
    if (!root && !stone && p == 0) return fail(from, "a board text (no move) without a point");
    if (!root && stone && p == 0) return fail(from, "a move without a point (a pass: Renju has none)");
    int at_node = 0;
    if (!root) {
        Node n;
        n.point = point;
        n.parent = path.back();
        n.move = stone;
        n.offset = std::uint32_t(from);
        t_.nodes.push_back(std::move(n));
        at_node = int(t_.nodes.size()) - 1;
        t_.nodes[std::size_t(path.back())].children.push_back(at_node);
        path.push_back(at_node);
        for (int up = n.parent; stone && up >= 0 && !t_.nodes[std::size_t(up)].move_below; up = t_.nodes[std::size_t(up)].parent)
            t_.nodes[std::size_t(up)].move_below = true;
    }
    // Comments belong to the move they follow; a board text's to the move it labels (its nearest move above).
    int owner = at_node;
    while (owner > 0 && !t_.nodes[std::size_t(owner)].move) owner = t_.nodes[std::size_t(owner)].parent;
    std::vector<std::string>& into = t_.nodes[std::size_t(owner)].comments;
    std::size_t split = one_line.find('\x08');
    for (std::string part : {one_line.substr(0, split), split == std::string::npos ? std::string() : one_line.substr(split + 1)}) {
        if (part.empty()) continue;
        into.push_back(as_utf8(part));
    }
    if (!texts.empty()) into.push_back("board text " + stones::point_name(point) + ": " + as_utf8(texts));
    if (root) return true;
    if (flags & down) kept.push_back(path.size() - 1);
    if ((flags & right) && !kept.empty()) {
        path.resize(kept.back());
        kept.pop_back();
    }
    return true;
}

bool TreeReader::run() {
    if (b_.size() < header_size)
        return fail(0, "a RenLib library starts with a 20-byte header; the file has " + std::to_string(b_.size()) + " bytes");
    if (!claims_renlib(b_)) return fail(0, "no RenLib header (the bytes FF 'RenLib' FF)");
    const auto major = static_cast<unsigned char>(b_[8]), minor = static_cast<unsigned char>(b_[9]);
    if (major != 3)
        return fail(8, "RenLib version " + std::to_string(major) + "." + std::to_string(minor) +
                           ": gounki reads the libraries of RenLib 3.x");
    t_.nodes.assign(1, Node{});
    std::vector<int> path{0};
    std::vector<std::size_t> kept;
    while (at_ < b_.size())
        if (!node(path, kept)) return false;
    return true;
}

// The game of the line from the root to `leaf`.
void line_game(const RenLibReader::Tree& tree, std::size_t leaf, GameRecord& out) {
    std::vector<std::size_t> chain;
    for (int n = int(leaf); n > 0; n = tree.nodes[std::size_t(n)].parent)
        if (tree.nodes[std::size_t(n)].move) chain.push_back(std::size_t(n));
    std::vector<StoneLineMove> moves;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Node& n = tree.nodes[*it];
        StoneLineMove& m = moves.emplace_back();
        m.point = n.point;
        m.written = stones::point_name(n.point);
        m.byte = n.offset;
        m.comments = n.comments;
    }
    out.set_kind(GameKind::renju);
    out.main.comments = tree.nodes[0].comments;
    out.tags.emplace_back("Game", "Renju");
    stones::StonePosition pos;
    const bool whole = replay_stone_line(out, moves, pos);
    StoneLineMove end;
    end.byte = moves.empty() ? 0 : moves.back().byte;
    settle_stone_result(out, pos, "*", end);
    out.tags.emplace_back("Result", out.result);
    out.status = !whole ? GameStatus::partial : out.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
}

// The whole tree as one game: below each move, the first move in the file continues the line and
// the others are its variations (nested at most max_variation_depth deep, as a record can hold).
class TreeGame {
public:
    TreeGame(const RenLibReader::Tree& tree, GameRecord& out) : t_(tree), out_(out) {}

    void run() {
        out_.set_kind(GameKind::renju);
        out_.main.comments = t_.nodes[0].comments;
        out_.tags.emplace_back("Game", "Renju");
        stones::StonePosition pos = out_.start.as_stones();
        const std::vector<std::size_t> first = moves_below(0);
        bool whole = true;
        StoneLineMove end;
        if (!first.empty()) whole = line(first, out_.main, pos, 0, 0, end);
        settle_stone_result(out_, pos, "*", end);
        out_.tags.emplace_back("Result", out_.result);
        out_.status = !whole ? GameStatus::partial : out_.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
    }

private:
    // The moves right below the node `n` (below a board text: below the move it labels), in file order.
    std::vector<std::size_t> moves_below(std::size_t n) const {
        std::vector<std::size_t> out;
        for (const int c : t_.nodes[n].children) {
            if (t_.nodes[std::size_t(c)].move) out.push_back(std::size_t(c));
            else for (std::size_t m : moves_below(std::size_t(c))) out.push_back(m);
        }
        return out;
    }

    StoneLineMove move_of(std::size_t n) const {
        const Node& node = t_.nodes[n];
        StoneLineMove m;
        m.point = node.point;
        m.written = stones::point_name(node.point);
        m.byte = node.offset;
        m.comments = node.comments;
        return m;
    }

    // Plays `here.front()` and the moves below it onto `into`, `here`'s others as variations of its
    // first ply; false when a move of the line is refused (its error said). `last` ends as the line's
    // last move read.
    bool line(std::vector<std::size_t> here, Line& into, stones::StonePosition& pos, int ply, int depth,
              StoneLineMove& last) {
        for (;;) {
            const stones::StonePosition before = pos;
            last = move_of(here.front());
            if (!play_stone_move(out_, into, last, pos, ply)) return false;
            for (std::size_t k = 1; k < here.size(); ++k) {
                if (depth + 1 > grammar::max_variation_depth) {
                    add_line_diagnostic(out_, Severity::warning, "too-deep", move_of(here[k]),
                                        "variations nested more than " + std::to_string(grammar::max_variation_depth) +
                                            " deep are left out");
                    break;
                }
                Line v;
                stones::StonePosition at = before;
                StoneLineMove end;
                line({here[k]}, v, at, ply, depth + 1, end);
                if (!v.plies.empty()) into.plies.back().variations.push_back(std::move(v));
            }
            ++ply;
            here = moves_below(here.front());
            if (here.empty()) return true;
        }
    }

    const RenLibReader::Tree& t_;
    GameRecord& out_;
};

} // namespace

RenLibReader::RenLibReader(std::istream& in, std::string name, bool as_tree)
    : FileSource(in, std::move(name)), as_tree_(as_tree) {}
RenLibReader::~RenLibReader() = default;

bool RenLibReader::load() {
    std::string bytes;
    if (!read_whole(bytes, max_bytes, "not read as a RenLib library")) return false;
    tree_ = std::make_unique<Tree>();
    if (!TreeReader(bytes, *tree_).run()) {
        file_error("syntax", "not a readable RenLib library: " + tree_->fault + "; no game of the file is read");
        tree_.reset();
        return false;
    }
    return true;
}

bool RenLibReader::next(GameRecord& game) {
    if (!loaded_) {
        loaded_ = true;
        if (!load()) return false;
    }
    if (!tree_) return false;
    if (as_tree_) {
        if (games_ > 0 || !tree_->nodes[0].move_below) return false;
        game.clear();
        game.file = name_;
        game.number = ++games_;
        TreeGame(*tree_, game).run();
        for (Diagnostic& d : game.diagnostics) d.game = game.number;
        return true;
    }
    while (++next_node_ < tree_->nodes.size()) {
        const Node& n = tree_->nodes[next_node_];
        if (!n.move || n.move_below) continue;
        game.clear();
        game.file = name_;
        game.number = ++games_;
        line_game(*tree_, next_node_, game);
        for (Diagnostic& d : game.diagnostics) d.game = game.number;
        return true;
    }
    return false;
}

std::vector<GameRecord> read_renlib(std::string_view bytes, const std::string& name, std::vector<Diagnostic>* file_diagnostics,
                                    bool as_tree) {
    std::istringstream in{std::string(bytes)};
    RenLibReader reader(in, name, as_tree);
    return read_all(reader, file_diagnostics);
}

bool claims_renlib(std::string_view head) { return head.substr(0, 8) == std::string_view("\xFFRenLib\xFF", 8); }

std::string renlib_cannot_hold(const GameRecord&) { return "gounki reads RenLib libraries but does not write them"; }

} // namespace gounki::parser
