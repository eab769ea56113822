// gounki serve [--db PATH] [--host 127.0.0.1] [--port 8080] [--read-only] [--max-upload MIB] [--threads N]
//              [--idle-timeout S] [--judge-options "ARGS"]
// Options only: the server is cli/serve*.cpp.
#include "cli/db_options.hpp"
#include "cli/serve.hpp"

#include <QProcess>
#include <QThread>

#include <algorithm>

namespace gounki::cli {

void describe_serve(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"host",
                 "The address to listen on (default 127.0.0.1: this machine only; another one is warned about).",
                 "address", "127.0.0.1"});
    p.addOption({"port", "The port to listen on (default 8080; 0: a free one, printed).", "N", "8080"});
    p.addOption({"read-only", "Refuse every write (imports): the database is opened read-only."});
    p.addOption({"max-upload", "The largest upload accepted, in MiB (default 64).", "MiB", "64"});
    p.addOption({"threads", "Threads serving requests, each with its own database connection (default: one per core).", "N"});
    p.addOption({"idle-timeout", "Seconds a connection may keep the server waiting for its client (default 30).", "S", "30"});
    p.addOption({"judge-options",
                 "The judging options of `gounki analyze` that \"Judge this game\" uses, as one argument "
                 "(--judge-options '--nodes 100000 --confirm 4'): --depth, --nodes, --confirm, --book and the "
                 "thresholds (default: analyze's defaults; --engine is refused).",
                 "ARGS"});
}

int run_serve(const QCommandLineParser& p) {
    const Command& self = *find_command("serve");
    if (const int code = refuse_arguments(self, p)) return code;
    serve::Options options;
    long long port = 8080, upload = 64, idle = 30;
    if (!read_number(p, "port", 0, 65535, port)) return usage_error(self, "--port takes a whole number from 0 to 65535");
    if (!read_number(p, "max-upload", 1, 4096, upload))
        return usage_error(self, "--max-upload takes a whole number of MiB from 1 to 4096");
    if (!read_number(p, "idle-timeout", 1, 3600, idle))
        return usage_error(self, "--idle-timeout takes a whole number of seconds from 1 to 3600");
    options.idle_timeout_ms = int(idle * 1000);
    options.db_path = db_path(p);
    options.host = p.value("host").trimmed();
    options.port = quint16(port);
    options.read_only = p.isSet("read-only");
    options.max_upload = qint64(upload) << 20;
    long long threads = std::max(1, QThread::idealThreadCount());
    if (!read_number(p, "threads", 1, 256, threads))
        return usage_error(self, "--threads takes a whole number from 1 to 256");
    options.threads = int(threads);
    if (p.isSet("judge-options")) {
        const QString typed = p.value("judge-options").trimmed();
        const QStringList args = QProcess::splitCommand(typed);
        std::optional<protocol::BrainSettings> engine;
        std::string error;
        if (!judge_setup_from_arguments(args, options.judging, engine, error))
            return usage_error(self, "--judge-options '" + typed.toStdString() + "': " + error);
        if (engine)
            return usage_error(self, "--judge-options: the web app judges with the built-in engines; --engine is for "
                                     "`gounki analyze` and `gounki worker`");
        options.judging.set_texts(nullptr);
        options.judge_options = args.join(' ').toStdString();
    }
    return serve::run(options);
}

} // namespace gounki::cli
