#pragma once
// SGF import for the stone games: what Gomoku programs and servers export (FF[4], GM[4]).
//
//   SgfReader reader("games.sgf");
//   GameRecord game;
//   while (reader.next(game)) ...      // one game tree at a time, replayed through core/stones
//
// What a game tree becomes (a GameRecord like the GPN reader's, record.hpp):
//   - kind: GM[4] is Gomoku; the stone game RU[] names (any case; the other words of RU are read
//     as our Rules tag: RU[Ninuki simple], RU[ninuki,allow-double-three]); a rule gounki does not
//     play is refused by name (unsupported-game). GM other than 4 is unsupported-game and nothing is
//     replayed, unless the root names a five-in-a-row rule (wrong-game-number, read as GM[4]). A missing GM (SGF's default is Go) is read as Gomoku with a warning `missing-game`.
//   - tags, in this order when present: Game, the game information of sgf_info_tags (Event from
//     EV, Site, Round, GameName, Opening, teams, Annotator, Source, EnteredBy, Copyright,
//     Overtime), Date (DT, 2024-05-01 written 2024.05.01), Black (PB), White (PW), BlackElo (BR),
//     WhiteElo (WR; a rank that is no number is BlackRank/WhiteRank), Result (from RE: B+... is
//     0-1, W+... is 1-0, 0 / Draw / D is 1/2-1/2, Void / ? / empty *, anything else * with the
//     warning bad-result-tag), Termination (RE's reason: sgf_result_reasons), TimeControl (TM), Size (SZ),
//     Rules (the options, when not the defaults), OpeningRule, Alt (5A), SetUp and Position (when
//     AB/AW place stones before the first move). RU (and GN when RU names none) names the rule set
//     (docs/rules.md 4.1, 4.3).
//   - start: a StonePosition(rules) with the AB/AW stones of the root node; PL[W] gives White
//     the first move. SZ defaults to 15 for Gomoku, 19 for Ninuki; 15 and 19 only (bad-rules).
//   - the main line is the first child at each node; each B[]/W[] is a Move::placement whose
//     comments are the node's C[] (and those of the move-less nodes after it); the other children
//     are parser::Line variations on the ply they replace. C[] of the root is main.comments.
//   - coordinates: two lowercase letters, column then row with row a at the TOP of the board:
//     rank = size - 1 - row. A pass (B[], B[tt]) is an illegal move here.
//   - result: RE's value as above (result_written is false: SGF has no termination marker).
//
// Diagnostics (codes of record.hpp): syntax (malformed SGF: file:line:column of the fault, the
// game's main line stops there), illegal-move (off the board, occupied, a forbidden double-three,
// a pass, the wrong colour: the message says which), move-after-end, result-contradicts,
// result-incomplete (warning), unsupported-game, bad-rules, too-deep; and `missing-game`,
// `setup-ignored` (AB/AW/AE after the root node: a warning, the stones are not placed),
// `wrong-game-number` (GM[5] of a Renju server, and any GM other than 4 on a root that names a
// five-in-a-row rule or has 5A: read as GM[4]), `unknown-property` (a property gounki neither reads
// nor knows to pass over: once per identifier and game) and `bad-alt` (5A, the offered fifth moves,
// read as RenjuNet's alt: docs/rules.md 4.1) warnings.
// Status as record.hpp says: partial when the main line stops at an error, invalid for other errors.
//
// Encoding: UTF-8 (a byte order mark says so whatever CA says). A game tree whose root's CA names
// another character set (CA[GB2312], CA[Shift_JIS], CA[windows-1251]...) is decoded from that set
// through ICU, each game tree in its own (SGF: CA is a property of each game's root); the tree's end
// is found stepping over the set's characters (a character's bytes may include ']' or '\\' in such
// sets). A game tree that reads as UTF-8 is UTF-8 whatever CA says. A set ICU does not know is the
// warning unknown-charset, bytes that are no text of the set become U+FFFD with the warning
// bad-charset (once per set and file); other text that is not UTF-8 is read as Windows-1252
// (not-utf8, once per file).
//
// Memory: one game tree's text at a time (a game is not bounded, unlike the GPN reader).

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/encoding.hpp"
#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

// SGF's game information that gounki keeps as tags, read from the root node and written back there:
// SGF property, tag. The other tags SGF holds (players, ratings, date, result, time) have their own
// rules in the reader and the writer.
inline constexpr std::pair<std::string_view, std::string_view> sgf_info_tags[] = {
    {"EV", "Event"},     {"PC", "Site"},      {"RO", "Round"},      {"GN", "GameName"},
    {"ON", "Opening"},   {"BT", "BlackTeam"}, {"WT", "WhiteTeam"},  {"AN", "Annotator"},
    {"SO", "Source"},    {"US", "EnteredBy"}, {"CP", "Copyright"}, {"OT", "Overtime"}};

// The reasons a won game's RE gives after B+ or W+ (its letter, its word, in lower case) and the
// Termination tag gounki keeps for each (written back as the letter).
struct SgfResultReason {
    std::string_view letter, word, termination;
};
inline constexpr SgfResultReason sgf_result_reasons[] = {
    {"r", "resign", "resignation"}, {"t", "time", "time forfeit"}, {"f", "forfeit", "forfeit"}};

class SgfReader : public FileSource {
public:
    using FileSource::FileSource; // a file by its path, or a stream and the file's name

    // The next game tree of the collection, replayed; false at the end of the input. Problems with
    // the file rather than a game (take_file_diagnostics): text outside any game tree (syntax),
    // not-utf8, unknown-charset and bad-charset (warnings), io-error.
    bool next(GameRecord& game) override;
    ~SgfReader() override;
    int games_read() const { return number_; }
    // The set the last game read was decoded from (its CA), empty when UTF-8.
    std::string charset() const override { return charset_name_; }

private:
    bool read_more(); // appends a block of input to buf_ (lone CRs as LF); false when none came
    std::size_t read_block(); // the next block of input, as it is, into block_; 0 at the end (eof_)
    // The decoder of the set the CA of the game tree at pos_ names, or null (UTF-8, Windows-1252
    // where it is not): docs/rules.md 4.1. Warns of a set it cannot be, once per set.
    CharsetDecoder* tree_charset();
    // Passes over (and reports) any text before the next game tree: a warning, or an error when the
    // text holds a property (a game may be lost) or the file has no game tree at all; false at the
    // end of the input.
    bool to_game_tree();
    // The end of the game tree at pos_: past the ')' that closes its '(' (or the end of the input),
    // stepping over the characters of `set` in values (null: bytes).
    std::size_t tree_end(CharsetDecoder* set);
    // Moves the place (line_, column_) over `text` (raw bytes of buf_ when not `utf8`).
    void advance(std::string_view text, bool utf8);
    void warn_replaced(); // the bad-charset warnings at the end of the input, for the sets that replaced any

    std::string buf_; // the input read and not yet given out as games, as it is (lone CRs as LF)
    std::size_t pos_ = 0; // first unread byte of buf_
    bool eof_ = false;
    bool started_ = false; // byte order mark checked
    bool bom_ = false; // UTF-8's byte order mark: every game is UTF-8
    bool warned_encoding_ = false, warned_replaced_ = false;
    static constexpr std::size_t block_size = 1 << 16;
    std::unique_ptr<char[]> block_;
    bool cr_pending_ = false; // buf_ ended in a CR (lone_cr_to_lf)
    struct Charset {
        std::string key, name; // the name in lower case, and as CA writes it first
        std::unique_ptr<CharsetDecoder> decoder; // null: a set gounki cannot read the file in (warned)
    };
    std::vector<Charset> charsets_; // each set a CA of the file names
    std::string charset_name_; // the set the last game was decoded from, as its CA writes it ("": UTF-8)
    int line_ = 1, column_ = 1; // place of buf_[pos_]
    int number_ = 0;
};

// Every game of an SGF text in memory (tests, small inputs).
std::vector<GameRecord> read_sgf(std::string_view text, const std::string& name = "<text>",
                                 std::vector<Diagnostic>* file_diagnostics = nullptr);

// The SGF text of a stone game (one game tree; a collection is game trees one after the other):
// FF[4] GM[4], SZ, RU (the game, its rule words and the OpeningRule tag), the players, event, date
// and result as properties, AB/AW/PL for a set-up start, comments, annotations and variations.
// The SGF reader reads it back as the same game.
std::string write_sgf(const GameRecord& game);
// Why `game` cannot be written as SGF (a Gounki game; captured stones in its start); empty when it can.
std::string sgf_cannot_hold(const GameRecord& game);

// Whether the start of a file is SGF's: its first non-blank characters (after a byte order mark) are
// '(' then, after blanks, ';' (formats.hpp asks this first, then the name).
bool claims_sgf(std::string_view head);
// Whether a file should be read as SGF: claims_sgf, or its name ends in .sgf (any case).
bool looks_like_sgf(const std::filesystem::path& name, std::string_view head);

} // namespace gounki::parser
