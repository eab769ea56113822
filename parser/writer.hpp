#pragma once
// The canonical text of a game record: what `gounki` writes, and what reads back as the same game.
//
//   [Game "Gounki"]            tags in a fixed order: Game, Event, Site, Date, Round, White, Black,
//   [Event "Club evening"]     Result; then SetUp "1" and Position when the game does not start from
//   ...                        the start position; then every other tag in its original order.
//   [Result "*"]               Game and Result are always written; other tags only when present.
//
//   1. c2-d3 f7-e6 2. b2-c2 {a comment} 2... e7-e6+ 3. d2-c2+?! (3. d3-e4 g7-g6) 3... c7-c6
//   4. c2*c3,c4 *
//
// Moves in canonical notation (move_to_text) unless another is asked for; the first NAG of a move written as its suffix when it
// is 1..6 (`!` `?` `!!` `??` `!?` `?!`), others as `$n`; comments in braces (a comment holding `}`
// as a `;` comment); Black's move numbered `N...` after a comment or variation; lines wrapped at
// 79 columns (a `(` goes to the next line with what follows it rather than end a line, or make it
// longer); a blank line after the tag pairs and after the game.

#include <cstdint>
#include <iosfwd>
#include <string>

#include "parser/record.hpp"

namespace gounki::parser {

// How a stone game's points are written: gounki's own (`h8`, files a.. with none skipped, lower
// case), or Go-style coordinates as pente.org writes them (`K10`: files A-T without I, upper case,
// rows from the bottom), used on 19x19 boards only, where the reader tells them from gounki's
// (docs/rules.md 2.3, Coordinates); other sizes keep gounki's points, and so does a game whose
// main line stays left of column J while a variation goes past it (the reader decides the style
// from the main line).
enum class StonePoints : std::uint8_t { gounki, go };

// `notation`: how Gounki moves are written (core/gounki/notation.hpp; automatic is the canonical one). A
// record in any notation reads back as the same game, and so does one with either StonePoints.
std::string write_record(const GameRecord& game, Notation notation = Notation::wikipedia,
                         StonePoints points = StonePoints::gounki);
void write_record(std::ostream& out, const GameRecord& game, Notation notation = Notation::wikipedia,
                  StonePoints points = StonePoints::gounki);

// The movetext of one line of play from `pos` (no tags, no result): for messages and tests.
std::string write_line(const Line& line, const Position& pos, Notation notation = Notation::wikipedia);

} // namespace gounki::parser
