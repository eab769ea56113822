#include "parser/web_text_normalizer.hpp"

namespace gounki::parser::web_detail {

bool Normalizer::line_blank(std::size_t p, std::size_t& len, char32_t& cp) const {
    if (p >= n_) return false;
    const unsigned char c = s_[p];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
        len = 1;
        cp = c;
        return true;
    }
    if (c < 0x80) return false;
    const unsigned k = decode_utf8(s_ + p, n_ - p, cp);
    if (k == 0) return false;
    const Kind kind = classify(cp);
    if (kind != Kind::space && kind != Kind::zero_width) return false;
    len = k;
    return true;
}

std::size_t Normalizer::skip_line_blanks(std::size_t p, bool* spaced) const {
    std::size_t len;
    char32_t cp;
    while (line_blank(p, len, cp)) {
        if (spaced && (cp < 0x80 || classify(cp) == Kind::space)) *spaced = true;
        p += len;
    }
    return p;
}

bool Normalizer::quote_at(std::size_t p, std::size_t& len, char32_t& cp) const {
    if (p >= n_) return false;
    if (s_[p] == '"') {
        len = 1;
        cp = '"';
        return true;
    }
    if (s_[p] < 0x80) return false;
    const unsigned k = decode_utf8(s_ + p, n_ - p, cp);
    if (k == 0 || classify(cp) != Kind::quote) return false;
    len = k;
    return true;
}

bool Normalizer::parse_pair(std::size_t p, Pair& r) const {
    r.open = p;
    std::size_t q = skip_line_blanks(p + 1);
    r.name_b = q;
    q = tag_name_end(s_, q, n_);
    if (q == r.name_b) return false;
    r.name_e = q;
    r.spaced = false;
    q = skip_line_blanks(q, &r.spaced);
    if (!quote_at(q, r.q1_len, r.q1_cp)) return false;
    r.q1 = q;
    // A value opened with '"' prefers a '"' before its ']', as the grammar reads it: a
    // typographic quote before a ']' closes it only when no such '"' follows on the line
    // (`"Lyon”]` is "Lyon", `"is »]"]` is `is »]`: regression 007, found by fuzzing).
    bool fallback = false;
    Pair typographic;
    auto close_at = [&](std::size_t v, std::size_t len, char32_t cp, std::size_t e, Pair& into) {
        into.q2 = v;
        into.q2_len = len;
        into.q2_cp = cp;
        into.close = e;
    };
    for (std::size_t v = q + r.q1_len; v < n_;) {
        const unsigned char c = s_[v];
        if (eol_byte(c) || (html_ && c == '<')) break;
        if (c == '\\') {
            if (v + 1 >= n_ || eol_byte(s_[v + 1])) break;
            v += 2;
            continue;
        }
        std::size_t len;
        char32_t cp;
        if (quote_at(v, len, cp)) {
            const std::size_t e = skip_line_blanks(v + len);
            if (e < n_ && s_[e] == ']') {
                if (r.q1_cp != '"' || cp == '"') {
                    close_at(v, len, cp, e, r);
                    return true;
                }
                if (!fallback) {
                    fallback = true;
                    close_at(v, len, cp, e, typographic);
                }
            }
            v += len;
            continue;
        }
        char32_t any;
        const unsigned k = c < 0x80 ? 1 : decode_utf8(s_ + v, n_ - v, any);
        v += k ? k : 1;
    }
    if (!fallback) return false;
    close_at(typographic.q2, typographic.q2_len, typographic.q2_cp, typographic.close, r);
    return true;
}

bool Normalizer::tag_line_follows(std::size_t p) const {
    std::size_t q = p;
    while (q < n_) {
        if (s_[q] == ' ' || s_[q] == '\t' || s_[q] == '\r' || s_[q] == '\f' || s_[q] == '\v') ++q;
        else if (q + 2 < n_ && s_[q] == 0xEF && s_[q + 1] == 0xBB && s_[q + 2] == 0xBF) q += 3;
        else break;
    }
    if (q < n_ && s_[q] == '[') { // the ASCII form, exactly as the grammar checks it
        std::size_t k = tag_name_end(s_, q + 1, n_);
        if (k > q + 1 && k < n_ && (s_[k] == ' ' || s_[k] == '\t')) {
            while (k < n_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
            if (k < n_ && s_[k] == '"') return true;
        }
    }
    q = skip_line_blanks(p);
    Pair pr;
    return q < n_ && s_[q] == '[' && parse_pair(q, pr) && pr.spaced;
}

void Normalizer::put_blanks(std::size_t b, std::size_t e) {
    std::size_t len;
    char32_t cp;
    while (b < e && line_blank(b, len, cp)) {
        if (cp < 0x80) {
            out_[w_++] = char(cp);
        } else if (classify(cp) == Kind::space) {
            out_[w_++] = ' ';
            note(b, cp, " ", false);
        } else {
            note(b, cp, "", false);
        }
        b += len;
    }
}

std::size_t Normalizer::blanks_length(std::size_t b, std::size_t e) const {
    std::size_t n = 0, len;
    char32_t cp;
    while (b < e && line_blank(b, len, cp)) {
        n += cp < 0x80 || classify(cp) == Kind::space;
        b += len;
    }
    return n;
}

std::size_t Normalizer::guillemet_space_at(std::size_t p, std::size_t limit, char32_t& cp) const {
    if (p >= limit) return 0;
    if (s_[p] == ' ') {
        cp = ' ';
        return 1;
    }
    const unsigned k = s_[p] < 0x80 ? 0 : decode_utf8(s_ + p, limit - p, cp);
    return k && (cp == 0xA0 || cp == 0x2009 || cp == 0x202F) ? k : 0;
}

std::size_t Normalizer::guillemet_space_before(std::size_t p, std::size_t limit, char32_t& cp) const {
    for (std::size_t k = 1; k <= 3 && p >= limit + k; ++k)
        if (guillemet_space_at(p - k, p, cp) == k) return k;
    return 0;
}

void Normalizer::put_pair(const Pair& pr) {
    const std::size_t start = w_;
    out_[w_++] = '[';
    put_blanks(pr.open + 1, pr.name_b);
    std::memcpy(&out_[w_], s_ + pr.name_b, pr.name_e - pr.name_b);
    w_ += pr.name_e - pr.name_b;
    put_blanks(pr.name_e, pr.q1);
    out_[w_++] = '"';
    if (pr.q1_cp != '"') note(pr.q1, pr.q1_cp, "\"", false);
    // The value; inside guillemets without the spaces next to them.
    std::size_t vb = pr.q1 + pr.q1_len, ve = pr.q2;
    std::vector<WebTextNote> trailing;
    char32_t cp;
    if (is_guillemet(pr.q1_cp))
        while (std::size_t k = guillemet_space_at(vb, ve, cp)) {
            if (cp != ' ') note(vb, cp, "", false);
            vb += k;
        }
    if (is_guillemet(pr.q2_cp))
        while (std::size_t k = guillemet_space_before(ve, vb, cp)) {
            ve -= k;
            if (cp != ' ') trailing.insert(trailing.begin(), WebTextNote{std::uint32_t(ve), cp, "", false});
        }
    // A '"' inside a value between typographic quotes is text: escaped when there is room.
    std::size_t quotes = 0;
    const bool typographic = pr.q1_cp != '"' || pr.q2_cp != '"';
    if (typographic)
        for (std::size_t v = vb; v < ve; ++v) {
            if (s_[v] == '\\') ++v;
            else if (s_[v] == '"') ++quotes;
        }
    const std::size_t rest = (ve - vb) + 1 + blanks_length(pr.q2 + pr.q2_len, pr.close) + 1;
    const bool escape = quotes > 0 && (w_ - start) + rest + quotes <= pr.close + 1 - pr.open;
    for (std::size_t v = vb; v < ve; ++v) {
        if (s_[v] == '\\' && v + 1 < ve) {
            out_[w_++] = '\\';
            out_[w_++] = char(s_[++v]);
            continue;
        }
        if (escape && s_[v] == '"') out_[w_++] = '\\';
        out_[w_++] = char(s_[v]);
    }
    for (WebTextNote& n : trailing) notes_.push_back(std::move(n));
    out_[w_++] = '"';
    if (pr.q2_cp != '"') note(pr.q2, pr.q2_cp, "\"", false);
    put_blanks(pr.q2 + pr.q2_len, pr.close);
    out_[w_++] = ']';
}

bool Normalizer::tag_line(std::size_t pos, std::size_t& end) {
    const std::size_t p = skip_line_blanks(pos);
    if (p >= n_ || s_[p] != '[') return false;
    Pair pr;
    if (!parse_pair(p, pr)) {
        if (html_) return false;
        end = p;
        while (end < n_ && !eol_byte(s_[end])) ++end;
        return true;
    }
    // Blanks before the '[' stay in place.
    for (std::size_t b = pos, len = 1; b < p; b += len) {
        char32_t cp = 0;
        if (!line_blank(b, len, cp) || cp < 0x80 || (cp == 0xFEFF && b == 0)) continue;
        spaces(b, b + len);
        note(b, cp, classify(cp) == Kind::space ? " " : "", false);
    }
    w_ = p;
    put_pair(pr);
    for (;;) {
        const std::size_t next = skip_line_blanks(pr.close + 1);
        Pair more;
        if (next >= n_ || s_[next] != '[' || !parse_pair(next, more)) break;
        put_blanks(pr.close + 1, next);
        pr = more;
        put_pair(pr);
    }
    end = pr.close + 1;
    spaces(w_, end);
    return true;
}

} // namespace gounki::parser::web_detail
