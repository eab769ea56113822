#include "core/stones/points.hpp"

namespace gounki::stones {

std::string point_name(int p) {
    std::string s(1, char('a' + point_file(p)));
    s += std::to_string(point_rank(p) + 1);
    return s;
}

int parse_point(std::string_view text, int size) {
    if (text.size() < 2 || text.size() > 3) return no_point;
    const char f = char(text[0] | 0x20);
    if (f < 'a' || f >= 'a' + size) return no_point;
    int rank = 0;
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return no_point;
        rank = rank * 10 + (text[i] - '0');
    }
    if (text[1] == '0' || rank < 1 || rank > size) return no_point;
    return make_point(f - 'a', rank - 1);
}

} // namespace gounki::stones
