#pragma once
// The 26 canonical Renju openings (docs/rules.md 2.6): the shapes the first three stones of a
// Renju game make under every opening rule of the RIF (Black's first stone on the centre, White's
// beside it or diagonal to it, Black's second within the central 5x5 square). Players, books and
// collections name a game's opening by them ("Kagetsu", "4D").
//
// One seam: the names, the codes and the shapes live here; the commands (tree, search --opening,
// reports) ask this file.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/stones/position.hpp"

namespace gounki::stones {

struct RenjuOpening {
    int number = 0;      // 1..13 within its family
    bool direct = false; // direct: White's first stone beside Black's; indirect: diagonal to it
    std::string_view name; // "Kagetsu"
    std::string_view kanji; // "花月"
    // Black's second stone from the centre (file, rank; rank up), White's first stone being at
    // (0, 1) for a direct opening and (1, 1) for an indirect one.
    int file_offset = 0, rank_offset = 0;

    std::string code() const { return std::to_string(number) + (direct ? "D" : "I"); } // "4D"
    std::string label() const { return std::string(name) + " (" + code() + ")"; }      // "Kagetsu (4D)"
};

// The 26, direct ones first, each family in its number order.
std::span<const RenjuOpening> renju_openings();

// The opening a Renju position of exactly three stones shows (two black, one white, no capture
// possible in Renju): Black's first stone on the centre h8, White's stone next to it (in a line or
// diagonally), Black's other stone within two points of the centre. Any of the board's eight
// symmetries (rotations and reflections about the centre) names the same opening. White must be
// to move, as after the third stone (a set-up position of these stones with Black to move is no
// opening). None for any other position, another game, or another board size.
const RenjuOpening* renju_opening_of(const StonePosition& pos);

// The opening a text names: its name in any case, with or without the long vowels' `u`
// ("Shogetsu", "shougetsu") or with their macron ("Shōgetsu"), its Japanese name, or its code
// ("4D", "D4", "i13"), blanks around it allowed. None otherwise.
const RenjuOpening* find_renju_opening(std::string_view text);

// Every Renju position that shows `o`: its images under the board's symmetries (four or eight,
// each once), White to move.
std::vector<StonePosition> renju_opening_positions(const RenjuOpening& o);

// "Kansei (1D), Keigetsu (2D), ...": for messages that list the names.
std::string renju_opening_names();

// Whether an opening rule (its name as the readers keep it: "RIF", "Yamaguchi", "Soosyrv-8",
// "Taraguchi-10", "Tarannikov") places the first three stones as the 26 openings are made: Black
// on the centre, White next to it, Black's second within the central 5x5 square. Sakata, Jonsson
// and the swaps are not checked (docs/rules.md 2.6).
bool places_canonical_opening(std::string_view opening_rule);
// What a stone on `point` of `before` (a Renju position of fewer than five stones, from the empty
// board) breaks of that placement under `opening_rule`: the `opening-rule` warning's text ("under
// the RIF opening rule Black's first stone is on the centre, h8"), or "" when it keeps to it, the
// rule places no canonical opening, or an earlier stone already broke it. Under Taraguchi-N and
// Tarannikov the fourth stone is within the central 7x7 square too, and under Tarannikov the fifth
// within the 9x9 one.
std::string opening_rule_breach(const StonePosition& before, int point, std::string_view opening_rule);

// Two fifth moves Black offered that are one move: the same point twice, or two points that a
// symmetry of `after_four` (the position after the fourth stone, whose own symmetries leave it
// as it is) exchanges, so that White's choice between them is no choice. Every opening rule that
// has Black offer fifth moves (RIF, Yamaguchi, Soosyrv-N, Taraguchi-N) wants them to differ.
struct SameFifthOffers {
    std::size_t first = 0, second = 0; // indexes into the offers, first < second
    int symmetry = 0; // core/stones/symmetry.hpp's number taking the first to the second; 0: the same point
};
std::optional<SameFifthOffers> same_fifth_offers(const StonePosition& after_four, std::span<const int> offers);

} // namespace gounki::stones
