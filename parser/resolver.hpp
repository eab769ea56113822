#pragma once
// Inside the replay (resolve.hpp): the Resolver and the helpers its parts share. Its members are
// defined by concern: resolve.cpp (the replay of a line, the game's run), resolve_tags.cpp (tag
// pairs, the start position, the result), resolve_gounki.cpp (Gounki moves in every notation) and
// resolve_stones.cpp (stone moves). Included by those files only.

#include <string>
#include <string_view>
#include <vector>

#include "core/gounki/notation.hpp"
#include "core/text.hpp"
#include "parser/resolve.hpp"

namespace gounki::parser::resolve_detail {

std::string_view result_text(ast::Result r);
bool is_result_text(std::string_view s);
// A Result tag's value as a result: trimmed, and `1 - 0` (the official site's records space it) read
// as `1-0`.
std::string result_tag_value(std::string_view v);
std::string trim(std::string_view s);
// A comment's text: trimmed, with Windows line ends read as '\n'.
std::string comment_text(std::string_view s);
const Position& initial_position();
std::string color_name(Color c);
std::string files_and_ranks(int size);
std::string go_files_and_ranks(int size); // columns A-T without I
// PlayOK's GameType tag, `60,15` (gomoku) or `61,15` (gomoku with a swap2 opening): its size.
bool playok_game_type(std::string_view v, int& size);
// The Date tag of `tags` in the project's form (dates.hpp; month first for pente.org's records).
void normalize_date_tag(std::vector<std::pair<std::string, std::string>>& tags);

// The common case of a Gounki move without core's resolve_move (resolve_gounki.cpp); none when in doubt.
Move quick_resolve(const Position& pos, const MoveSpec& spec);
// The legal move the writer obviously meant: the only candidate one edit away from what was written,
// or the only deployment placing on the same squares in another order. Empty when in doubt.
std::string nearest_move(const Position& pos, std::string_view written, const MoveList& candidates);
// The move at elements[k], if that element is one.
const ast::Move* move_at(const std::vector<ast::Element>& elements, std::size_t k);
bool is_board_square(const ast::Move& m);
// What a game's moves say of their notation: LC4's forms, else the official site's loose squares.
Notation detect_notation(const std::vector<ast::Element>& elements);

// The position of a line being replayed: a Gounki position or a stone game's.
struct Undo {
    UndoRecord gounki;
    stones::StoneUndo stone;
};

struct GameState {
    Position g = initial_position();
    stones::StonePosition s;
    bool stone = false;

    static GameState of(const AnyPosition& p) {
        GameState st;
        if (const stones::StonePosition* s = p.stones()) {
            st.s = *s;
            st.stone = true;
        } else {
            st.g = p.as_gounki();
        }
        return st;
    }
    Color side_to_move() const { return stone ? s.side_to_move() : g.side_to_move(); }
    Outcome outcome() const { return stone ? s.outcome() : g.outcome(); }
    bool game_over() const { return outcome() != Outcome::none; }
    void do_move(Move m, Undo& u) {
        if (stone) s.play(m, u.stone);
        else g.do_move(m, u.gounki);
    }
    void undo_move(Move m, const Undo& u) {
        if (stone) s.undo(u.stone);
        else g.undo_move(m, u.gounki);
    }
};

// Concatenation without `"literal" + std::string` chains (GCC 12 warns falsely about them).
template <typename... Parts>
std::string cat(const Parts&... parts) {
    std::string s;
    ((s += parts), ...);
    return s;
}

class Resolver {
public:
    Resolver(const ast::Game& game, const SourceMap& source, std::span<const ast::SyntaxError> errors, const std::string& file,
             int number, GameRecord& out, Notation notation)
        : game_(game), src_(source), errors_(errors), file_(file), number_(number), out_(out), forced_(notation) {}

    void run();

private:
    struct LineState {
        GameState pos;
        int ply = 0; // plies from the game's start to `pos`
        bool number_checked = false;
        int slots = 0; // swap2's choices and passes so far: they take a move's place in the numbering
    };

    Diagnostic& report(Severity sev, std::string_view code, std::uint32_t offset, std::string message);
    Diagnostic& report_move(Severity sev, std::string_view code, const ast::Move& m, const LineState& st, std::string message);
    int move_number(const LineState& st) const;
    bool first_of_pair(const LineState& st) const; // the first move of a numbered pair is to be written
    std::string move_label(const LineState& st) const;

    Move full_resolve(const ast::Move& m, const LineState& st, bool main);
    // The official and LC4 notations: the pieces of one written move, from elements[i] on, grouped
    // into `out` (i moves to the last piece taken). `none` when elements[i] is a move as it stands.
    enum class Group { none, grouped, failed };
    Group group(const std::vector<ast::Element>& elements, std::size_t& i, const LineState& st, ast::Move& out);
    // LC4's `g8#`: the stack on the square leaves the board, how is not written.
    Move resolve_exit_from(const ast::Move& m, const LineState& st, bool main);
    // A stone game's move (or a Gounki move written in one, or a point in a Gounki game): the move,
    // or none after reporting why there is none. `last`: the main line's last move, which may be
    // Black's foul that lost a Renju game (five_rules.hpp, foul_ending): the warning `foul` is
    // reported, none returned and foul_comment_ set.
    Move resolve_stone(const ast::Move& m, const LineState& st, bool main, bool last = false);
    // The result the record states, in colours: the one after the moves, else the Result tag's.
    std::string stated_result() const;
    // `1-0` and `0-1` as this record means them, in colours (put_result_in_colours).
    std::string in_colours(std::string_view result) const;
    bool set_up_stones();
    void name_players_by_colour();
    // A record whose results name the winner by turn or column, not colour (`1-0`: the first
    // player, Black): `1-0` and `0-1` read the other way round from here on, and the Result tag put
    // in colours, its written value kept in the tag `kept`.
    void put_result_in_colours(const char* kept);
    bool detect_go_coordinates(int size) const;
    void read_tags();
    bool set_up();
    void read_players(const ast::TableHeader& h);
    // Replays `elements` from st into `line`; returns false when the line stopped at an error.
    bool resolve_line(const std::vector<ast::Element>& elements, LineState st, Line& line, int depth);
    // One line being replayed: its elements, position, plies so far, and the last ply with its undo
    // record (a variation after it starts from the position before it, rebuilt on demand rather
    // than copied at every ply).
    struct LineRun {
        const std::vector<ast::Element>& elements;
        LineState st;
        Line& line;
        Move last;
        Undo undo;
        int depth;
    };
    // Each kind of element of a line; those returning bool return false when the line stops there.
    void read_number(const ast::MoveNumber& n, LineRun& run);
    bool read_move(std::size_t& i, LineRun& run); // i moves to the last element the move took
    void read_annotation(const ast::Annotation& a, LineRun& run);
    bool read_comment(const ast::Comment& c, LineRun& run);
    bool read_variation(const ast::Variation& v, LineRun& run);
    bool read_unknown(const ast::Unknown& u, LineRun& run);
    // Words a stone game's movetext may hold (resolve_stones.cpp): `Resign`, `Forfeit` (pente.org) and
    // swap2's `black`, `white` and `--` (PlayOK). False when `text` is none of them.
    bool read_stone_token(const std::string& text, const ast::Unknown& u, LineRun& run);
    // PlayOK's conventions, once the moves are read (resolve_stones.cpp): players by colour after a
    // swap2 choice, results by colour.
    void apply_playok();
    // kurnik's Renju records (resolve_stones.cpp): a record of www.kurnik.pl with no Game or GameType
    // tag whose first pair is a point and `--` (the opener placed the first three stones).
    bool is_kurnik_renju() const;
    // kurnik Renju's fifth move (the main line's fifth stone): Black's two offers are held in
    // fifth_offers_ (offered), White's choice among them is checked and set in `move` (chosen; the
    // offer left stays in fifth_offers_ for the variation); failed: an error was reported.
    enum class Fifth { not_fifth, offered, chosen, failed };
    Fifth read_fifth_move(const ast::Move& m, LineRun& run, Move& move);
    void check_result();
    // A Status tag "partial" or "invalid" (gounki export's mark of a broken game) keeps the game so:
    // an error (code "marked-partial" or "marked-invalid"), and a partial game's main line is cut.
    void check_status_tag();

    const ast::Game& game_;
    const SourceMap& src_;
    std::span<const ast::SyntaxError> errors_;
    const std::string& file_;
    int number_;
    GameRecord& out_;
    Notation forced_; // Notation::automatic: detected from the game's moves
    Notation notation_ = Notation::wikipedia;

    bool black_first_ = false; // the start position has the second player of a move pair to move
    Color pair_first_ = Color::white; // who plays first in a numbered move pair: the game's first mover
    bool flip_results_ = false; // `1-0` and `0-1` read the other way round (put_result_in_colours)
    bool playok_ = false; // a PlayOK record (GameType 60 or 61): results name the players in column order
    bool kurnik_renju_ = false; // a kurnik Renju record (is_kurnik_renju): two fifth moves offered
    struct Offer {
        Move move;
        std::string written;
    };
    std::vector<Offer> fifth_offers_; // kurnik Renju: the fifth moves Black offered, until White chose
    int swap_choice_column_ = 0; // swap2: the column (1 or 2) whose player chose a colour; 0: none
    Color swap_choice_ = Color::black; // ... and the colour chosen
    bool go_coordinates_ = false; // stone points in Go style: A-T without I (detect_go_coordinates)
    bool set_up_ = false; // the game starts from a position other than the start
    int number_base_ = 1; // the number of the first move
    bool main_cut_ = false; // the main line stopped at an error
    bool players_read_ = false;
    // How the main line ended the game, for messages: the ply and its text.
    int end_ply_ = -1;
    std::string end_text_;
    std::uint32_t last_offset_ = 0;
    std::string foul_comment_; // the main line ended with Black's foul (resolve_stone): its comment
    static constexpr std::uint32_t no_offset = std::uint32_t(-1);
    // The main line's last move as written, if nothing but move numbers, NAGs and comments follow.
    std::uint32_t last_move_offset_ = no_offset;
    GameState main_end_; // the position after the main line
};

} // namespace gounki::parser::resolve_detail
