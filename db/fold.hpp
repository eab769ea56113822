#pragma once
// Names matched without regard to case or accents: the fold of a text, the same for "Hélène" and
// "HELENE", "Straße" and "STRASSE", "Lyon–Genève" and "lyon-geneve".

#include <string>
#include <string_view>

struct sqlite3;

namespace gounki::db {

// The fold of UTF-8 text (ICU): compatibility decomposition (NFKD), full Unicode case folding
// (ß to ss, final sigma to sigma), decomposed again, combining marks removed; dashes (Unicode
// dash punctuation and the minus sign) become '-', typographic single quotes and primes '\'',
// double quotes, guillemets and double primes '"'. Invalid UTF-8 sequences become U+FFFD.
// Deterministic: the same text gives the same fold on every run and machine with one ICU version.
std::string fold_text(std::string_view text);

// Registers the SQL function gounki_fold(text) (fold_text; NULL stays NULL) on a connection.
void register_fold_function(sqlite3* db);

} // namespace gounki::db
