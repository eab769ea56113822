#pragma once
// Streaming reader of record files: one game at a time, in memory bounded by the largest game
// (capped at max_game_bytes), whatever the size of the file.
//
//   RecordReader reader("games.gpn");
//   GameRecord game;
//   while (reader.next(game)) {           // replayed through core, with diagnostics
//       for (const Diagnostic& d : reader.take_file_diagnostics()) ...   // encoding, I/O
//       if (game.status == GameStatus::valid) ...
//   }
//
// How it works: a byte-level splitter (splitter.hpp) finds where each game ends; that chunk alone is
// checked for UTF-8 (converted from Windows-1252 when it is not), parsed by the X3 grammar into a
// syntax tree, and replayed (resolve.hpp). skip() parses but does not replay.
//
// Blocks: where the buffer holds a stretch of games that ends where the splitter would cut anyway
// (a tag pair line after a line ending in a result), that stretch is parsed at once, in place, with
// no splitter pass: the grammar ends games at the same places the splitter does. A block that is not
// valid UTF-8 or that the grammar finds anything wrong with is read again game by game, so blocks
// change only the speed, never what is read (a test compares both ways on mutated records).
//
// Web text: a chunk holding typographic characters (dashes, curly quotes, Unicode spaces) or an HTML
// table is read through normalize_web_text, with one `typographic` warning per kind of character
// and game; lines and columns still name the text as written.
//
// Encodings: a UTF-8 byte order mark at the start is dropped. Each game that is not valid UTF-8 is
// read as Windows-1252 and converted; the first such game in a file raises one `not-utf8` warning
// naming the file (in take_file_diagnostics()), later ones are converted silently.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parser/formats.hpp"
#include "parser/record.hpp"
#include "parser/resolve.hpp"
#include "parser/splitter.hpp"
#include "parser/syntax.hpp"
#include "parser/web_text.hpp"

namespace gounki::parser {

class RecordReader : public FileSource {
public:
    // A game larger than this is reported (game-too-large) and passed over, never held in memory.
    static constexpr std::size_t default_max_game_bytes = std::size_t(16) << 20;

    using FileSource::FileSource; // a file by its path, or a stream and the file's name

    // The next game, replayed; false at the end of the input (or when it could not be read).
    bool next(GameRecord& game) override;
    // Passes over the next game without replaying its moves. When `header` is given it receives the
    // game's tags, number, line, file and written result (no moves, no diagnostics).
    bool skip(GameRecord* header = nullptr);

    // Problems with the file rather than a game (take_file_diagnostics): not-utf8, io-error.
    int games_read() const { return number_; }

    // How Gounki moves are read: detected per game (the default), or one notation forced.
    void set_notation(Notation n) { notation_ = n; }

    // The limit of one game's size (tests lower it); the memory the reader holds for input text.
    void set_max_game_bytes(std::size_t n) { max_game_bytes_ = n; }
    // Read several games at once once this many bytes are in hand (0: always game by game).
    void set_block_bytes(std::size_t n) { block_bytes_ = n; }
    std::size_t buffer_capacity() const { return buf_.capacity() + chunk_.capacity(); }

private:
    bool load_chunk(); // parses the next chunk; false at the end of the input
    enum class Block { none, empty, games };
    Block load_block(); // parses the next block of games, when there is one (see above)
    std::size_t block_end() const; // where a block from begin_ may end; begin_ when nowhere
    bool block_agrees(std::string_view text) const; // the grammar's games are the splitter's
    bool read_more(); // appends a block of input to the buffer; false when none came
    void advance_place(std::string_view text); // moves line_/column_ over `text`
    void report_open_comment(std::string_view text); // a chunk without a game that opens a comment
    // Makes text_ readable where it was pasted from a web page (typographic characters, HTML) and
    // sets source_; the text as written stays what lines and columns are counted in.
    void set_source(std::string_view written);
    // One `typographic` warning per kind of character changed inside game `g` of the chunk.
    void add_web_notes(const ast::Game& g, GameRecord& game) const;
    // The next game of the current chunk: its syntax errors gathered, number assigned.
    const ast::Game* take_game(std::vector<ast::SyntaxError>& errors);

    Notation notation_ = Notation::automatic;
    std::size_t max_game_bytes_ = default_max_game_bytes;
    std::size_t block_bytes_ = 16 * 1024;
    std::uint64_t base_ = 0; // offset in the input of buf_[0]
    std::uint64_t no_block_until_ = 0; // game by game up to this offset in the input
    std::vector<char> buf_;
    std::size_t begin_ = 0; // the current chunk starts here in buf_
    std::size_t end_ = 0; // data ends here
    bool eof_ = false;
    bool started_ = false; // the byte order mark check has run
    GameSplitter splitter_;

    int line_ = 1, column_ = 1; // place of buf_[begin_] in the file
    std::string chunk_; // the current chunk converted to UTF-8, when it was not
    std::string web_; // the current chunk made readable (web_text.hpp), when needed
    bool cr_pending_ = false; // the block read last ended in a CR (lone_cr_to_lf)
    std::string escaped_; // the current chunk with its `%` escape lines blanked, when it has any
    std::vector<WebTextNote> notes_; // what that changed, offsets in the chunk
    std::string_view text_; // the current chunk: chunk_, web_, escaped_, or a block inside buf_
    SourceMap source_{std::string_view(), 1, 1}; // places in text_, kept across its games
    int chunk_line_ = 1, chunk_column_ = 1;
    ChunkSyntax syntax_;
    std::size_t next_game_ = 0;
    bool oversized_ = false; // the current "chunk" is a game too large to read
    bool oversized_text_ = false; // and holds more than blanks (a run of blank lines is no game)
    bool warned_encoding_ = false;
    int number_ = 0;
    std::vector<ast::SyntaxError> game_errors_;
};

// Every game of a text in memory (tests, small inputs).
std::vector<GameRecord> read_records(std::string_view text, const std::string& name = "<text>",
                                     std::vector<Diagnostic>* file_diagnostics = nullptr);

} // namespace gounki::parser
