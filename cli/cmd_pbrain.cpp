// gounki pbrain [--hash MB]: the stone engine as a Gomocup-protocol brain on standard input and
// output (protocol/pbrain.hpp; README "gounki pbrain"). One command per line in, the answers out,
// flushed after each line; END or the end of the input exits 0.
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "protocol/pbrain.hpp"

namespace gounki::cli {

void describe_pbrain(QCommandLineParser& p) { add_hash_option(p, "INFO max_memory may ask for less"); }

int run_pbrain(const QCommandLineParser& p) {
    const Command& self = *find_command("pbrain");
    if (const int code = refuse_arguments(self, p)) return code;
    protocol::PbrainOptions options;
    options.version = GOUNKI_VERSION;
    if (int code = exit_ok; !read_hash_option(self, p, options.hash_mb, code)) return code;
    protocol::PbrainSession session(options);
    const auto sink = [](std::string_view line) {
        std::string text(line);
        text += '\n';
        print_out(text);
        std::fflush(stdout);
    };
    std::string line;
    while (!session.ended() && std::getline(std::cin, line)) session.handle(line, sink);
    return exit_ok;
}

} // namespace gounki::cli
