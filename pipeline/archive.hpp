#pragma once
// Archives and compressed files read as the record files they hold, through libarchive: zip, tar,
// 7z, cpio and the like, bare or compressed (gzip, bzip2, xz, zstd, ...), and a single compressed
// record file (`games.pgn.gz`). Collections travel so: Gomocup's tournaments as archives of PSQ
// files, pente.org's games in zip files. Members are read one after the other
// from the stream, in the archive's order, without unpacking anything to disk.

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace gounki::pipeline {

class Archive {
public:
    // Reads `in` (which must outlive it); `seekable`: it may be moved in (a file, a text in memory),
    // which lets zip files be read from their central directory. `kind`: what its first bytes show
    // (parser::archive_kind): a compressed stream holds a tar, a cpio or one file; a zip or 7z that
    // cannot be moved in is held in memory (up to 128 MiB) to be read from its directory.
    // At most `limit` bytes are unpacked from the archive (the members read and the ones passed
    // over, every member at least 1 KiB); past it the member read ends as damaged and next() fails,
    // error() saying so; 0: no limit. `counter`, when given, is shared with other archives (those
    // inside this one): one budget.
    Archive(std::istream& in, bool seekable, std::string_view kind = {}, std::uint64_t limit = 0,
            std::uint64_t* counter = nullptr);
    ~Archive();
    Archive(const Archive&) = delete;
    Archive& operator=(const Archive&) = delete;

    struct Member {
        std::string path;    // in the archive ("Freestyle15_1/0_4_10_2.psq"), a leading "./" dropped
        bool regular = true; // a file (not a folder, a link, a device)
        bool single = false; // the input is one compressed file, not an archive: `path` is empty
    };
    enum class Next { member, end, failed };
    // The next member; its bytes are data() until the next call. `failed`: the archive cannot be read
    // further (error() says why).
    Next next(Member& member);
    // Whether the input is an archive or a compressed file at all; known after the first next().
    bool recognised() const;
    // The bytes of the input read so far (compressed, as the archive is stored).
    std::uint64_t input_bytes() const;
    // The current member's bytes; where they are damaged, they end there (member_failed()).
    std::istream& data();
    // Whether the current member's bytes ended at damage (error() says what) rather than at its end.
    bool member_failed() const;
    // libarchive's last error, or empty.
    std::string error() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace gounki::pipeline
