#include "db/fold.hpp"

#include <sqlite3.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include <algorithm>
#include <vector>

#include "db/sqlite.hpp"
#include "parser/web_text.hpp"

namespace gounki::db {

namespace {

using Units = std::vector<UChar>;

// ICU's two-call pattern: a first try in a buffer of a guessed size, then the size it asked for.
template <class F>
Units icu_call(std::size_t guess, F&& f) {
    Units out(std::max<std::size_t>(guess, 16));
    UErrorCode err = U_ZERO_ERROR;
    int32_t n = f(out.data(), int32_t(out.size()), &err);
    if (err == U_BUFFER_OVERFLOW_ERROR) {
        out.resize(std::size_t(n));
        err = U_ZERO_ERROR;
        n = f(out.data(), int32_t(out.size()), &err);
    }
    if (U_FAILURE(err)) return {};
    out.resize(std::size_t(n));
    return out;
}

Units nfkd(const Units& in) {
    static UErrorCode init = U_ZERO_ERROR;
    static const UNormalizer2* const norm = unorm2_getNFKDInstance(&init);
    if (!norm) return in;
    return icu_call(in.size() * 2, [&](UChar* out, int32_t cap, UErrorCode* err) {
        return unorm2_normalize(norm, in.data(), int32_t(in.size()), out, cap, err);
    });
}

// The ASCII character a dash or a typographic quote reads as; 0 for any other. Double quotes and
// dashes as a record's reader reads them (parser/web_text.hpp), with every other dash of Unicode and
// the single quotes and primes of names (O'Brien) besides.
UChar32 ascii_punctuation(UChar32 c) {
    if (const char a = parser::ascii_stand_in(char32_t(c)); a == '-' || a == '"') return a;
    if (u_charType(c) == U_DASH_PUNCTUATION) return '-';
    switch (c) {
    case 0x2018:
    case 0x2019:
    case 0x201A:
    case 0x201B:
    case 0x2032:
    case 0x2035: return '\'';
    case 0x2036: return '"';
    default: return 0;
    }
}

bool is_mark(UChar32 c) {
    const int8_t t = u_charType(c);
    return t == U_NON_SPACING_MARK || t == U_ENCLOSING_MARK || t == U_COMBINING_SPACING_MARK;
}

std::string fold_unicode(std::string_view text) {
    const Units utf16 = icu_call(text.size(), [&](UChar* out, int32_t cap, UErrorCode* err) {
        int32_t n = 0;
        u_strFromUTF8WithSub(out, cap, &n, text.data(), int32_t(text.size()), 0xFFFD, nullptr, err);
        return n;
    });
    const Units decomposed = nfkd(utf16);
    const Units folded = nfkd(icu_call(decomposed.size() + 8, [&](UChar* out, int32_t cap, UErrorCode* err) {
        return u_strFoldCase(out, cap, decomposed.data(), int32_t(decomposed.size()), U_FOLD_CASE_DEFAULT, err);
    }));
    Units kept;
    kept.reserve(folded.size());
    for (int32_t i = 0; i < int32_t(folded.size());) {
        UChar32 c;
        U16_NEXT(folded.data(), i, int32_t(folded.size()), c);
        if (is_mark(c)) continue;
        if (const UChar32 a = ascii_punctuation(c)) c = a;
        if (U_IS_BMP(c)) {
            kept.push_back(UChar(c));
        } else {
            kept.push_back(U16_LEAD(c));
            kept.push_back(U16_TRAIL(c));
        }
    }
    std::string out(kept.size() * 3, '\0');
    UErrorCode err = U_ZERO_ERROR;
    int32_t n = 0;
    u_strToUTF8WithSub(out.data(), int32_t(out.size()), &n, kept.data(), int32_t(kept.size()), 0xFFFD, nullptr, &err);
    if (U_FAILURE(err)) return {};
    out.resize(std::size_t(n));
    return out;
}

void sql_fold(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    const int bytes = sqlite3_value_bytes(argv[0]);
    const std::string folded = fold_text(std::string_view(text ? text : "", std::size_t(bytes)));
    sqlite3_result_text(ctx, folded.data(), int(folded.size()), SQLITE_TRANSIENT);
}

} // namespace

std::string fold_text(std::string_view text) {
    // Plain ASCII, the usual case, folds to its lower case: no need for ICU.
    if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
        std::string out(text);
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        return out;
    }
    return fold_unicode(text);
}

void register_fold_function(sqlite3* db) {
    const int rc = sqlite3_create_function_v2(db, "gounki_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                              nullptr, sql_fold, nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) throw DbError(rc, "cannot set up the database connection (name matching)");
}

} // namespace gounki::db
