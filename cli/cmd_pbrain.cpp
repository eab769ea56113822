// gounki pbrain [--hash MB]: the stone engine as a Gomocup-protocol brain on standard input and
// output (protocol/pbrain.hpp; README "gounki pbrain"). One command per line in, the answers out,
// flushed after each line; END or the end of the input exits 0.
#include "cli/command.hpp"
#include "protocol/pbrain.hpp"

namespace gounki::cli {

void describe_pbrain(QCommandLineParser& p) { add_hash_option(p, "INFO max_memory may ask for less"); }

int run_pbrain(const QCommandLineParser& p) { return serve_protocol("pbrain", p, protocol::run_pbrain); }

} // namespace gounki::cli
