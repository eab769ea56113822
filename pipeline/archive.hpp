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

namespace gounki::pipeline {

class Archive {
public:
    // Reads `in` (which must outlive it); `seekable`: it may be moved in (a file, a text in memory),
    // which lets zip files be read from their central directory; `compressed`: it starts as a
    // compressed stream (gzip, bzip2, xz, zstd), which holds a tar, a cpio or one file.
    Archive(std::istream& in, bool seekable, bool compressed = false);
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
    // At most `bytes` unpacked from the archive (the members read and the ones passed over); past
    // it the member read ends as damaged and next() fails, error() saying so. 0: no limit.
    // `counter`, when given, is shared with other archives (those inside this one): one budget.
    void limit(std::uint64_t bytes, std::uint64_t* counter = nullptr);
    // libarchive's last error, or empty.
    std::string error() const;
    // The archive's kind as libarchive names it ("ZIP 2.0 (deflation)", "GNU tar format" with "gzip").
    std::string description() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace gounki::pipeline
