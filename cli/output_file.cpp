#include "cli/output_file.hpp"

#include <filesystem>
#include <iostream>
#include <system_error>

namespace gounki::cli {

namespace fs = std::filesystem;

OutputFile::OutputFile(std::string path) : path_(std::move(path)), to_stdout_(path_ == "-") {}

OutputFile::~OutputFile() { abandon(); }

void OutputFile::abandon() {
    if (done_ || to_stdout_) return;
    done_ = true;
    if (file_.is_open()) file_.close();
    std::error_code ec;
    if (!part_.empty()) fs::remove(part_, ec);
}

bool OutputFile::open(std::string& error) {
    if (to_stdout_) return true;
    std::error_code ec;
    // Links followed one by one (a link to a file not made yet names the file to make).
    fs::path target = path_;
    for (int links = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++links) {
        const fs::path to = fs::read_symlink(target, ec);
        if (ec || links == 40) {
            error = "cannot follow the link '" + path_ + "'" + (ec ? ": " + ec.message() : std::string(": too many links"));
            return false;
        }
        target = to.is_absolute() ? to : target.parent_path() / to;
    }
    target_ = target.string();
    const fs::file_status st = fs::status(target_, ec);
    if (fs::is_directory(st)) {
        error = "'" + path_ + "' is a folder";
        return false;
    }
    // A device or a pipe is written into as it is: renaming a file over it would replace it.
    const bool special = fs::exists(st) && !fs::is_regular_file(st);
    part_ = special ? std::string() : target_ + ".part";
    file_.open(special ? target_ : part_, std::ios::binary | std::ios::trunc);
    if (!file_) {
        error = "cannot write '" + (special ? target_ : part_) + "'";
        part_.clear();
        return false;
    }
    return true;
}

std::ostream& OutputFile::stream() { return to_stdout_ ? std::cout : file_; }

bool OutputFile::commit(std::string& error) {
    if (to_stdout_) {
        std::cout.flush();
        if (std::cout) return true;
        error = "writing to standard output failed";
        return false;
    }
    file_.close();
    if (!file_) {
        error = "writing '" + (part_.empty() ? target_ : part_) + "' failed";
        abandon();
        return false;
    }
    if (part_.empty()) { // written straight into a device or a pipe
        done_ = true;
        return true;
    }
    std::error_code ec;
    const fs::file_status old = fs::status(target_, ec);
    if (fs::is_regular_file(old)) {
        fs::permissions(part_, old.permissions(), ec);
        if (!ec && fs::hard_link_count(target_, ec) > 1 && !ec) {
            // Other names share the file: its content is replaced in place, the text being whole already.
            fs::copy_file(part_, target_, fs::copy_options::overwrite_existing, ec);
            if (ec) {
                error = "cannot write '" + path_ + "': " + ec.message();
                abandon();
                return false;
            }
            abandon();
            return true;
        }
    }
    ec.clear();
    fs::rename(part_, target_, ec);
    if (ec) {
        error = "cannot create '" + path_ + "': " + ec.message();
        abandon();
        return false;
    }
    done_ = true;
    return true;
}

bool write_whole(const std::string& path, const std::string& text, std::string& error) {
    OutputFile out(path);
    if (!out.open(error)) return false;
    out.stream() << text;
    return out.commit(error);
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
}

} // namespace gounki::cli
