// gounki uci [--hash MB]: the Gounki engine behind a UCI-style text protocol on standard input and
// output (protocol/uci.hpp; README "gounki uci"). `quit` or the end of the input exits 0.
#include <iostream>

#include "cli/command.hpp"
#include "protocol/uci.hpp"

namespace gounki::cli {

void describe_uci(QCommandLineParser& p) { add_hash_option(p, "setoption name Hash changes it"); }

int run_uci(const QCommandLineParser& p) {
    const Command& self = *find_command("uci");
    if (const int code = refuse_arguments(self, p)) return code;
    protocol::UciOptions options;
    options.version = GOUNKI_VERSION;
    if (int code = exit_ok; !read_hash_option(self, p, options.hash_mb, code)) return code;
    protocol::run_uci(std::cin, std::cout, options);
    return exit_ok;
}

} // namespace gounki::cli
