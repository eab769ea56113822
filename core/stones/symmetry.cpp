#include "core/stones/symmetry.hpp"

#include <algorithm>

namespace gounki::stones {

int transformed_point(int point, int symmetry, int size) {
    // Twice the offsets from the centre, so that an even board's centre (between points) is exact.
    const Offset twice = transformed({2 * point_file(point) - (size - 1), 2 * point_rank(point) - (size - 1)}, symmetry);
    return make_point((twice.file + size - 1) / 2, (twice.rank + size - 1) / 2);
}

std::string_view symmetry_name(int symmetry) {
    switch (symmetry) {
    case 0: return "as it is";
    case 1: return "turned a quarter anticlockwise";
    case 2: return "turned a half";
    case 3: return "turned a quarter clockwise";
    case 4: return "mirrored left to right";
    case 5: return "mirrored top to bottom";
    case 6: return "mirrored about the rising diagonal"; // the one through a1
    default: return "mirrored about the falling diagonal";
    }
}

std::array<std::uint64_t, symmetry_count> image_keys(const StonePosition& pos) {
    std::array<std::uint64_t, symmetry_count> out;
    out.fill(pos.key());
    const int size = pos.size();
    for (int r = 0; r < size; ++r)
        for (int f = 0; f < size; ++f) {
            const int point = make_point(f, r);
            const Stone stone = pos.at(point);
            if (stone == Stone::empty) continue;
            const std::uint64_t here = stone_key(point, stone);
            for (int s = 1; s < symmetry_count; ++s)
                out[std::size_t(s)] ^= here ^ stone_key(transformed_point(point, s, size), stone);
        }
    return out;
}

StonePosition transformed(const StonePosition& pos, int symmetry) {
    return pos.moved_stones([&](int point) { return transformed_point(point, symmetry, pos.size()); });
}

std::vector<int> own_symmetries(const StonePosition& pos) {
    std::vector<int> out;
    for (int s = 1; s < symmetry_count; ++s)
        if (transformed(pos, s) == pos) out.push_back(s);
    return out;
}

std::vector<int> exchanged_points(int point, const std::vector<int>& symmetries, int size) {
    std::vector<int> out{point};
    for (const int s : symmetries) out.push_back(transformed_point(point, s, size));
    return out;
}

std::vector<Image> images(const StonePosition& pos) {
    std::vector<Image> out;
    for (int s = 0; s < symmetry_count; ++s) {
        StonePosition image = transformed(pos, s);
        if (std::none_of(out.begin(), out.end(), [&](const Image& i) { return i.position == image; }))
            out.push_back({std::move(image), s});
    }
    return out;
}

} // namespace gounki::stones
