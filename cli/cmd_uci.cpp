// gounki uci [--hash MB]: the Gounki engine behind a UCI-style text protocol on standard input and
// output (protocol/uci.hpp; README "gounki uci"). `quit` or the end of the input exits 0.
#include "cli/command.hpp"
#include "protocol/uci.hpp"

namespace gounki::cli {

void describe_uci(QCommandLineParser& p) { add_hash_option(p, "setoption name Hash changes it"); }

int run_uci(const QCommandLineParser& p) { return serve_protocol("uci", p, protocol::run_uci); }

} // namespace gounki::cli
