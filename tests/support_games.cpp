// The bodies of tests/support.hpp for games: Gounki positions and moves with the rules checks
// around them, stone-game points and positions, random lines of play.
#include "tests/support.hpp"

#include <algorithm>
#include <iterator>

#include "tests/catch.hpp"

namespace gounki::test {

// ---------------------------------------------------------------------------------------------
// Gounki positions and moves

Position position_of(const std::string& text) {
    auto r = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r))
        FAIL("bad test position '" << text << "' at column " << e->column << ": " << e->message);
    return std::get<Position>(r);
}

Square square_of(const char* name) {
    const Square s = parse_square(name);
    REQUIRE(s != no_square);
    return s;
}

Move move_of(const Position& pos, const std::string& text) {
    const Resolution r = resolve_move_text(pos, text);
    if (!r.move) FAIL("bad test move '" << text << "' in " << pos.to_text() << ": " << r.message);
    return r.move;
}

std::vector<Move> line_of(const std::vector<std::string>& texts, Position pos) {
    std::vector<Move> out;
    for (const auto& t : texts) {
        out.push_back(move_of(pos, t));
        UndoRecord u;
        pos.do_move(out.back(), u);
    }
    return out;
}

Position after(const std::vector<Move>& moves, std::size_t plies, Position pos) {
    UndoRecord undo;
    for (std::size_t i = 0; i < plies; ++i) pos.do_move(moves[i], undo);
    return pos;
}

std::set<std::string> texts_of(const Position& pos, const MoveList& list) {
    std::set<std::string> out;
    for (Move m : list) out.insert(move_to_text(pos, m));
    return out;
}

void expect_same_moves(const std::set<std::string>& got, const Texts& expected) {
    const std::set<std::string> want(expected.begin(), expected.end());
    REQUIRE(want.size() == expected.size()); // the expected list itself names no move twice
    Texts missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
    CHECK(missing == Texts{});
    CHECK(extra == Texts{});
}

void expect_moves(const std::string& position, const Texts& expected) {
    INFO("position " << position);
    Position pos = position_of(position);
    MoveList list;
    generate_moves(pos, list);
    const auto got = texts_of(pos, list);
    expect_same_moves(got, expected);
    CHECK(list.size() == int(got.size())); // no move is generated twice
    CHECK(count_moves(pos) == list.size());
    check_every_move(pos);
}

void expect_stack_moves(const Position& pos, const char* from, const Texts& expected) {
    INFO("position " << pos.to_text() << ", stack on " << from);
    MoveList list;
    generate_moves_from(pos, square_of(from), list);
    const auto got = texts_of(pos, list);
    expect_same_moves(got, expected);
    CHECK(list.size() == int(got.size()));
}

bool has_move(const Position& pos, const std::string& text) {
    MoveList list;
    generate_moves(pos, list);
    return texts_of(pos, list).count(text) == 1;
}

void check_every_move(Position& pos) {
    MoveList list;
    generate_moves(pos, list);
    const Position before = pos;
    const std::string text = pos.to_text();
    const std::uint64_t key = pos.key();
    const std::uint64_t occ_white = pos.occupancy(Color::white), occ_black = pos.occupancy(Color::black);
    const Color us = pos.side_to_move();
    CHECK(key == pos.compute_key());
    for (Move m : list) {
        const std::string mt = move_to_text(pos, m);
        INFO("position " << text << ", move " << mt);
        const Resolution r = resolve_move_text(pos, mt);
        CHECK(r.move == m);
        CHECK(r.warnings.empty());

        UndoRecord undo;
        pos.do_move(m, undo);
        CHECK(pos.key() == pos.compute_key());
        CHECK(pos.side_to_move() == ~us);
        const bool wins = m.ends_out() || pos.occupancy(~us) == 0;
        CHECK(pos.outcome() == (wins ? win_for(us) : Outcome::none));
        CHECK(pos.piece_count(us) <= before.piece_count(us));
        pos.undo_move(m, undo);

        CHECK(pos == before);
        CHECK(pos.key() == key);
        CHECK(pos.to_text() == text);
        CHECK(pos.occupancy(Color::white) == occ_white);
        CHECK(pos.occupancy(Color::black) == occ_black);
    }
}

void play(Position& pos, const std::string& text) {
    INFO("position " << pos.to_text() << ", move " << text);
    const Resolution r = resolve_move_text(pos, text);
    REQUIRE(r.move != Move::none());
    CHECK(r.warnings.empty());
    CHECK(move_to_text(pos, r.move) == text);
    UndoRecord undo;
    pos.do_move(r.move, undo);
    CHECK(pos.key() == pos.compute_key());
}

void play_random_game(std::mt19937& rng, const std::function<void(const Position&, Move)>& visit) {
    Position pos = Position::start();
    UndoRecord undo;
    while (!pos.game_over()) {
        MoveList moves;
        generate_moves(pos, moves);
        const Move m = moves[int(rng() % unsigned(moves.size()))];
        visit(pos, m);
        pos.do_move(m, undo);
    }
}

// ---------------------------------------------------------------------------------------------
// Stone-game points

int P(const std::string& name) {
    const int file = name.at(0) - 'a';
    const int rank = std::stoi(name.substr(1)) - 1;
    return rank * 20 + file; // points.hpp: stride 20
}

Move M(const std::string& name) { return Move::placement(P(name)); }

stones::Rules gomoku(int size) {
    stones::Rules r;
    r.kind = GameKind::gomoku;
    r.size = size;
    return r;
}

stones::Rules ninuki(int size) {
    stones::Rules r;
    r.kind = GameKind::ninuki;
    r.size = size;
    r.endgame_capture = true;
    r.no_double_three = true;
    return r;
}

stones::Rules ninuki_with(const char* rules_tag, int size) {
    stones::Rules r = ninuki(size);
    const auto err = stones::apply_rules_tag(r, rules_tag);
    INFO("Rules tag '" << rules_tag << "'");
    REQUIRE_FALSE(err.has_value());
    return r;
}

stones::StonePosition setup(const stones::Rules& rules, std::initializer_list<const char*> black,
                            std::initializer_list<const char*> white, Color side, int black_captured, int white_captured) {
    stones::StonePosition pos(rules);
    for (const char* b : black) pos.put(P(b), stones::Stone::black);
    for (const char* w : white) pos.put(P(w), stones::Stone::white);
    pos.set_side_to_move(side);
    pos.set_captured(Color::black, black_captured);
    pos.set_captured(Color::white, white_captured);
    REQUIRE(pos.key() == pos.compute_key());
    REQUIRE_FALSE(pos.game_over());
    return pos;
}

void play(stones::StonePosition& pos, const std::string& name) {
    INFO("move " << name << " in " << pos.to_text());
    const Move m = M(name);
    REQUIRE(pos.check(m) == stones::PlaceError::none);
    const stones::StonePosition before = pos;
    stones::StoneUndo u;
    pos.play(m, u);
    CHECK(pos.key() == pos.compute_key());
    stones::StonePosition back = pos;
    back.undo(u);
    CHECK(back == before);
    CHECK(back.key() == before.key());
}

stones::StonePosition stone_position_of(const std::string& text) {
    auto r = stones::StonePosition::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r))
        FAIL("bad test position '" << text << "' at column " << e->column << ": " << e->message);
    return std::get<stones::StonePosition>(r);
}

bool in_legal_moves(const stones::StonePosition& pos, const std::string& name) {
    const auto moves = pos.legal_moves();
    return std::find(moves.begin(), moves.end(), M(name)) != moves.end();
}

// ---------------------------------------------------------------------------------------------
// Random lines of play

namespace {

std::string random_comment(std::mt19937& rng, bool odd) {
    if (!odd) return "a comment";
    static const char* words[] = {"good", "{", "}", "(", ")", "[Event \"x\"]", "1-0", "*", "$3", "!?", ";", "\"", "a1-a2"};
    std::string s;
    const int n = int(rng() % 5);
    for (int i = 0; i < n; ++i) {
        if (i) s += ' ';
        s += words[rng() % (sizeof words / sizeof *words)];
    }
    return s;
}

} // namespace

parser::Line random_line(std::mt19937& rng, Position pos, int max_plies, const RandomLineStyle& style, int depth) {
    parser::Line line;
    if (style.odd_comments && rng() % 30 == 0) line.comments.push_back(random_comment(rng, true));
    UndoRecord undo;
    for (int i = 0; i < max_plies && !pos.game_over(); ++i) {
        MoveList moves;
        generate_moves(pos, moves);
        parser::Ply p;
        p.move = moves[int(rng() % unsigned(moves.size()))];
        if (style.prefer_deployments && rng() % 3 == 0)
            for (Move m : moves)
                if (m.type() != MoveType::movement && rng() % 4 == 0) {
                    p.move = m;
                    break;
                }
        if (style.nags && rng() % 20 == 0) p.nags.push_back(std::uint8_t(rng() % 256));
        if (style.nags && rng() % 40 == 0) p.nags.push_back(std::uint8_t(1 + rng() % 6));
        if (rng() % (style.odd_comments ? 25 : 30) == 0) p.comments.push_back(random_comment(rng, style.odd_comments));
        if (depth < style.max_depth && rng() % style.variation_one_in == 0)
            p.variations.push_back(random_line(rng, pos, 1 + int(rng() % 4), style, depth + 1));
        pos.do_move(p.move, undo);
        line.plies.push_back(std::move(p));
    }
    return line;
}

} // namespace gounki::test
