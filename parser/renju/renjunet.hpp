#pragma once
// The RenjuNet database (renju.net's download of its games, an XML file, usually *.rif): docs/rules.md
// 4.5 and README.md (Formats).
//
//   <?xml version="1.0" encoding="utf-8"?>
//   <database version="1.0">
//     <countries><country id="1" name="Estonia" abbr="EST"/></countries>
//     <cities><city id="3" name="Tallinn" country="1"/></cities>
//     <players><player id="7" name="Ando" surname="Meritee" country="1"/></players>
//     <rules><rule id="1" name="RIF"/></rules>
//     <openings><opening id="2" name="Kagetsu"/></openings>
//     <tournaments><tournament id="5" name="World Championship" city="3" start="1989-08-01" rule="1"/></tournaments>
//     <games>
//       <game id="11" tournament="5" round="3" black="7" white="8" bresult="1" opening="2" rule="1">
//         <move>h8 h9 i9 g8 g10 ...</move>
//       </game>
//     </games>
//   </database>
//
// Each <game> becomes a stone game (a GameRecord like the other readers'): its rule from the file's
// rule table (RIF, Yamaguchi, Sakata, ... are Renju with that opening rule as the OpeningRule tag;
// Gomoku; a rule gounki does not play, or an id the table lacks, is unsupported-game and the moves
// are not replayed); players, tournament, city and country resolved from their ids into Black,
// White, Event, Site and Date; Round, Opening (the opening's name), Result (bresult is Black's
// score: 1, 0.5 or 0), RenjuNetId (the game's id), and Alt, Swap (the opening's offered fifth moves
// and swaps) and Info (the <info> text) as written. A row's name is its `name`, else its `abbr`. Moves are points (`h8`, a-o from the left, 1-15 from the bottom), replayed by the
// rules; diagnostics at file:line:col of the move (or the <game> tag).
//
// Streamed through expat: tables are kept, games handed out as their </game> is read, so memory
// stays bounded for the tens of megabytes of the real database. Broken XML is a syntax error at its
// line and column (the game being read is dropped: nothing half stored); an id that no table holds
// is an unknown-id warning.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

class RenjuNetReader : public GameSource {
public:
    // Reads from `in`, which must outlive the reader; `name` is the file name used in diagnostics.
    RenjuNetReader(std::istream& in, std::string name);
    ~RenjuNetReader() override;
    RenjuNetReader(const RenjuNetReader&) = delete;
    RenjuNetReader& operator=(const RenjuNetReader&) = delete;

    bool ok() const override { return true; }
    bool next(GameRecord& game) override;
    std::vector<Diagnostic> take_file_diagnostics() override;
    std::uint64_t bytes_read() const override;
    bool io_failed() const override;

    struct State;

private:
    std::unique_ptr<State> s_;
};

// Every game of a RenjuNet text in memory (tests, fuzzing); `file_diagnostics` receives the file's own.
std::vector<GameRecord> read_renjunet(std::string_view text, const std::string& name = "<text>",
                                      std::vector<Diagnostic>* file_diagnostics = nullptr);

// Whether the start of a file is a RenjuNet database: an XML declaration and a <database> root.
bool claims_renjunet(std::string_view head);

// gounki reads RenjuNet files and does not write them: always a reason.
std::string renjunet_cannot_hold(const GameRecord& game);

} // namespace gounki::parser
