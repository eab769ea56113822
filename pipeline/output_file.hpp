#pragma once
// A file that a command writes whole or not at all: export's records, format's rewritten files and
// report's pages all go through it.
//
// The text goes to NAME.part beside the target; commit() puts it in the target's place:
//   - a regular file is replaced by a rename, with the old file's permissions kept; when it has
//     other hard links, the finished text is copied into it instead (the links keep seeing it),
//     with a copy of the old text beside it until the new one is whole: a failure puts it back, and
//     a signal that would end the program meanwhile (Ctrl-C) takes effect once the file is whole;
//   - a symbolic link is followed: the file it points to is replaced, the link stays;
//   - what is no regular file (a device such as /dev/null, a named pipe) is written straight into,
//     never replaced;
//   - "-" is standard output.
// A folder is refused. An OutputFile destroyed before commit() leaves the target as it was and no
// .part behind.

#include <fstream>
#include <iosfwd>
#include <string>

namespace gounki::pipeline {

class OutputFile {
public:
    explicit OutputFile(std::string path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // False with `error` set ("cannot write 'x.part': ...", "'dir' is a folder") when it cannot.
    bool open(std::string& error);
    std::ostream& stream();
    // Flushes and puts the text in place; false with `error` set (the target then is as it was).
    bool commit(std::string& error);

private:
    void abandon();
    bool rewrite_in_place(std::string& error);

    std::string path_; // as given
    std::string target_; // the file replaced: path_ with symbolic links followed
    std::string part_; // empty when written straight into the target
    std::ofstream file_;
    bool to_stdout_ = false;
    bool done_ = false;
};

// `text` written to `path` through an OutputFile; false with `error` set.
bool write_whole(const std::string& path, const std::string& text, std::string& error);

// Whether two names are one file (both exist and are the same file, through links): so that a
// command never writes over the database it reads.
bool same_file(const std::string& a, const std::string& b);

} // namespace gounki::pipeline
