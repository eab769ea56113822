// gounki serve, the network side: the connection guard, the Host and token checks, replies.
#include "cli/serve.hpp"

#include <QAbstractHttpServer>
#include <QCoreApplication>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSemaphore>
#include <QThread>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <set>
#include <shared_mutex>
#include <sys/socket.h>
#include <unistd.h>

#include "cli/command.hpp"
#include "cli/db_options.hpp"

namespace gounki::cli::serve {

Reply json_reply(const QJsonObject& o, int status) {
    return Reply{status, "application/json", QJsonDocument(o).toJson(QJsonDocument::Compact), {}};
}

Reply error_reply(int status, const std::string& code, const std::string& message) {
    return json_reply(QJsonObject{{"error", QJsonObject{{"code", QString::fromStdString(code)},
                                                        {"message", QString::fromStdString(message)}}}},
                      status);
}

Reply html_reply(const std::string& html, int status) {
    return Reply{status, "text/html; charset=utf-8", QByteArray::fromStdString(html), {}};
}

std::optional<QString> Request::param(const char* name) const {
    if (!query.hasQueryItem(name)) return std::nullopt;
    const QString v = query.queryItemValue(name, QUrl::FullyDecoded);
    if (v.isEmpty()) return std::nullopt;
    return v;
}

std::string Request::flag(const char* name, bool& on) const {
    return read_flag(lookup(), "", name, on);
}

ValueLookup Request::lookup() const {
    return [this](const char* name) -> std::optional<QString> {
        // A yes-or-no value given as a bare name (`?desc`, a flag) is on; given empty (`desc=`, a
        // form's field left empty), absent as any other value.
        if ((name == std::string_view("desc") || name == std::string_view("keep_duplicates") ||
             name == std::string_view("reject_broken") || name == std::string_view("inline") ||
             name == std::string_view("symmetric")) &&
            query.hasQueryItem(name) && query.queryItemValue(name, QUrl::FullyDecoded).isNull())
            return QString("");
        return param(name);
    };
}

namespace {

QByteArray raw_reply(int status, const Reply& r) {
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + " Refused\r\nContent-Type: " + r.content_type +
        "\r\nContent-Length: " + QByteArray::number(r.body.size()) + "\r\nConnection: close\r\n\r\n";
    return out + r.body;
}

// Watches one connection before Qt's HTTP parser reads it: a request whose Content-Length passes
// the upload limit (or a connection sending more bytes than that between two answers) is answered
// 413 and the connection closed without the request reaching the routes; a chunked body is refused
// (411: Qt HTTP Server 6.4 can hand a chunked request on before its body is whole); a header block
// over 64 KiB or 1,000 lines is refused (431). The header block is examined once it is whole, in
// however many pieces it came. A connection is dropped after the idle timeout of waiting for its
// client (for a request, or for it to read the answer): the timer stops while a request is handled
// and starts again once it is answered, each byte of the answer the client takes starting it anew.
class ConnectionGuard : public QObject {
public:
    static constexpr qsizetype max_head = 64 << 10;
    static constexpr qsizetype max_fields = 1000;

    ConnectionGuard(QTcpSocket* socket, qint64 limit, int idle_ms, std::atomic<int>* busy)
        : QObject(socket), socket_(socket), limit_(limit), busy_(busy) {
        idle_.setSingleShot(true);
        idle_.setInterval(idle_ms);
        connect(&idle_, &QTimer::timeout, this, [this] { socket_->abort(); });
        connect(socket, &QTcpSocket::readyRead, this, &ConnectionGuard::arrived);
        connect(socket, &QTcpSocket::bytesWritten, this, [this] {
            if (refused_) return end_stream();
            if (!handling_) idle_.start(); // the client takes the answer: still there
        });
        idle_.start();
    }
    ~ConnectionGuard() override {
        if (handling_) --*busy_;
    }

    // The guard of a connection, or nullptr.
    static ConnectionGuard* of(QTcpSocket* socket) {
        for (QObject* child : socket->children())
            if (auto* guard = dynamic_cast<ConnectionGuard*>(child)) return guard;
        return nullptr;
    }
    // A request of this connection is being handled: no client is waited for.
    void handling() {
        idle_.stop();
        if (!handling_) handling_ = true, ++*busy_;
    }
    // Its answer is written to the socket: the next request's header block is read afresh, and the
    // client is waited for again (to read the answer, to send another request).
    void answered() {
        if (handling_) handling_ = false, --*busy_;
        head_.clear();
        head_done_ = false;
        close_ = false;
        received_ = 0;
        idle_.start();
    }
    // The request answered last asked to close the connection after its answer (Connection: close,
    // or HTTP/1.0 without keep-alive).
    bool close_after() const { return close_; }

private:
    void arrived() {
        if (refused_) {
            socket_->readAll(); // the rest of a refused upload is thrown away
            return;
        }
        if (!handling_) idle_.start();
        const qint64 n = socket_->bytesAvailable(); // the bytes Qt's parser has not read yet
        const std::string too_large = "the request body is larger than the upload limit of " + std::to_string(limit_ >> 20) + " MiB";
        if (!head_done_) {
            head_ += socket_->peek(n);
            const qsizetype end = head_.indexOf("\r\n\r\n");
            const qsizetype size = end < 0 ? head_.size() : end + 4;
            if (size > max_head || head_.left(size).count("\r\n") > max_fields)
                return refuse(431, "header-too-large",
                              "the request's header block is larger than " + std::to_string(max_head >> 10) + " KiB or " +
                                  std::to_string(max_fields) + " lines");
            if (end >= 0) {
                head_done_ = true;
                head_.truncate(size);
                if (!examine_head(too_large)) return;
                head_.clear();
            }
        }
        received_ += n;
        if (received_ > limit_ + (qint64(1) << 20)) refuse(413, "too-large", too_large);
    }

    // The whole header block: false when the request was refused.
    bool examine_head(const std::string& too_large) {
        static const QRegularExpression length("\\r\\ncontent-length:[ \\t]*(\\d{1,18})",
                                               QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression chunked("\\r\\ntransfer-encoding:", QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression bad_length("\\r\\ncontent-length:[ \\t]*+(?!\\d{1,18}[ \\t]*\\r\\n)[^\\r\\n]*\\r\\n",
                                                   QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression connection("\\r\\nconnection:([^\\r\\n]*)", QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression version("^\\s*\\S+\\s+\\S+\\s+HTTP/1\\.0\\s*\\r\\n");
        const QString head = QString::fromLatin1(head_);
        // Qt HTTP Server 6.4 now and then answers a request whose Content-Length is not a number.
        if (bad_length.match(head).hasMatch()) {
            refuse(400, "bad-request", "the Content-Length header must be a whole number of bytes");
            return false;
        }
        const QRegularExpressionMatch m = length.match(head);
        if (m.hasMatch() && m.captured(1).toLongLong() > limit_) {
            refuse(413, "too-large", too_large);
            return false;
        }
        if (chunked.match(head).hasMatch()) {
            refuse(411, "length-required", "a request body needs a Content-Length (chunked bodies are refused)");
            return false;
        }
        // Connection: close, or HTTP/1.0 unless it asks for keep-alive: closed after the answer.
        bool close = false, keep_alive = false;
        for (auto it = connection.globalMatch(head); it.hasNext();)
            for (const QString& option : it.next().captured(1).split(',')) {
                const QString o = option.trimmed().toLower();
                close = close || o == "close";
                keep_alive = keep_alive || o == "keep-alive";
            }
        close_ = close || (version.match(head).hasMatch() && !keep_alive);
        return true;
    }

    // Answers `status` and ends the stream once the answer is sent; what the client still sends is
    // read and thrown away (closing at once could reset the connection before the client reads the
    // answer) until it closes, for at most the idle timeout.
    void refuse(int status, const std::string& code, const std::string& message) {
        refused_ = true;
        socket_->readAll();
        socket_->write(raw_reply(status, error_reply(status, code, message)));
        idle_.start();
        socket_->flush();
        end_stream();
    }
    void end_stream() {
        if (refused_ && !ended_ && socket_->bytesToWrite() == 0 && socket_->socketDescriptor() >= 0) {
            ended_ = true;
            ::shutdown(int(socket_->socketDescriptor()), SHUT_WR);
        }
    }

    QTcpSocket* socket_;
    qint64 limit_;
    std::atomic<int>* busy_; // the requests being handled on this connection's thread
    QByteArray head_; // the header block of the request coming, while it is not whole
    bool head_done_ = false;
    bool close_ = false;
    bool handling_ = false;
    qint64 received_ = 0;
    bool refused_ = false;
    bool ended_ = false; // refused: the answer sent, the stream ended (SHUT_WR)
    QTimer idle_;
};

class GuardedTcpServer;

// Hands each accepted connection to the request thread with the fewest open connections among
// those handling no request: the thread that accepts (an idle one: a busy thread does not accept)
// may take several waiting connections at once, and they are spread from there.
class Dispatcher {
public:
    explicit Dispatcher(int threads) : servers_(std::size_t(threads)) {}
    void add(int index, GuardedTcpServer* server) { servers_[std::size_t(index)] = server; }
    // Hands a connection `self` accepted to another thread's server through `serve` when that one
    // has fewer connections open; false when `self` is to keep it (or the threads are stopping).
    template <class F> bool send(GuardedTcpServer* self, qintptr descriptor, F serve);
    // From now on each thread keeps what it accepts (before the threads stop).
    void stop() {
        std::unique_lock lock(mutex_);
        stopping_ = true;
    }

private:
    std::vector<std::atomic<GuardedTcpServer*>> servers_;
    std::shared_mutex mutex_;
    bool stopping_ = false;
};

class GuardedTcpServer : public QTcpServer {
public:
    GuardedTcpServer(qint64 limit, int idle_ms, Dispatcher* dispatcher = nullptr)
        : limit_(limit), idle_ms_(idle_ms), dispatcher_(dispatcher) {}
    std::atomic<int> open{0}; // connections of this thread, counted from when they are handed to it
    std::atomic<int> busy{0}; // requests being handled on this thread (0 or 1)

    // Serves a connection on this server's thread.
    void serve(qintptr descriptor) {
        auto* socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            ::close(int(descriptor));
            --open;
            return;
        }
        // Counted out once, when it ends (or, failing that, when the socket goes).
        auto counted = std::make_shared<bool>(true);
        const auto leave = [this, counted] {
            if (*counted) *counted = false, --open;
        };
        connect(socket, &QTcpSocket::disconnected, this, leave);
        connect(socket, &QObject::destroyed, this, leave);
        new ConnectionGuard(socket, limit_, idle_ms_, &busy); // connected before the HTTP parser: it sees bytes first
        addPendingConnection(socket);
    }

protected:
    void incomingConnection(qintptr descriptor) override {
        if (dispatcher_ && dispatcher_->send(this, descriptor, [](GuardedTcpServer* to, qintptr d) {
                QMetaObject::invokeMethod(to, [to, d] { to->serve(d); }, Qt::QueuedConnection);
            }))
            return;
        ++open;
        serve(descriptor);
    }

private:
    qint64 limit_;
    int idle_ms_;
    Dispatcher* dispatcher_;
};

template <class F> bool Dispatcher::send(GuardedTcpServer* self, qintptr descriptor, F serve) {
    std::shared_lock lock(mutex_);
    if (stopping_) return false;
    // Among the threads handling no request, the one with the fewest connections (this one, which
    // accepted, handles none): a thread busy with a long request (an upload) gets none, as the
    // requests of a connection handed to it would wait for that one.
    GuardedTcpServer* best = self;
    int least = self->open;
    for (auto& slot : servers_) {
        GuardedTcpServer* s = slot;
        if (s && s->busy == 0 && s->open < least) best = s, least = s->open;
    }
    if (best == self) return false;
    ++best->open;
    serve(best, descriptor);
    return true;
}

class Server : public QAbstractHttpServer {
public:
    Server(App& app, const Options& options, QByteArray token) : app_(app), options_(options), token_(std::move(token)) {}

    void allow_hosts(const QHostAddress& address, quint16 port) {
        port_ = port;
        any_address_ = address == QHostAddress::AnyIPv4 || address == QHostAddress::AnyIPv6 || address == QHostAddress::Any;
        const QByteArray p = ":" + QByteArray::number(port);
        allowed_.insert(options_.host.toLower().toUtf8() + p);
        allowed_.insert((address.protocol() == QAbstractSocket::IPv6Protocol ? "[" + address.toString() + "]"
                                                                               : address.toString())
                            .toUtf8() +
                        p);
        if (address.isLoopback())
            for (const char* name : {"localhost", "127.0.0.1", "[::1]"}) allowed_.insert(name + p);
    }

protected:
    bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override {
        if (ConnectionGuard* guard = ConnectionGuard::of(socket)) guard->handling();
        send(request, socket, check_and_route(request));
        return true;
    }
    void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override {
        send(request, socket, error_reply(404, "not-found", "no such page"));
    }

private:
    // The Host header names this server: its own host and port, or a loopback form of them; with an
    // any-address listener an IP address literal and the port (never a name a DNS rebinding could use).
    bool host_allowed(const QByteArray& host) const {
        const QByteArray h = host.trimmed().toLower();
        if (allowed_.count(h)) return true;
        if (!any_address_) return false;
        const int colon = h.lastIndexOf(':');
        if (colon < 0 || h.mid(colon + 1) != QByteArray::number(port_)) return false;
        QByteArray name = h.left(colon);
        if (name.startsWith('[') && name.endsWith(']')) name = name.mid(1, name.size() - 2);
        return !QHostAddress(QString::fromLatin1(name)).isNull();
    }

    Reply check_and_route(const QHttpServerRequest& request) {
        if (!host_allowed(request.value("Host")))
            return error_reply(403, "bad-host",
                               "the Host header '" + request.value("Host").toStdString() + "' does not name this server");
        Request r;
        const auto method = request.method();
        if (method == QHttpServerRequest::Method::Post) r.post = true;
        r.path = request.url().path(QUrl::FullyDecoded);
        if (!r.post && method != QHttpServerRequest::Method::Get && method != QHttpServerRequest::Method::Head) {
            Reply reply = error_reply(405, "bad-method", "only GET and POST are served");
            reply.headers.emplace_back("Allow", allowed_methods(r.path));
            return reply;
        }
        QString q = request.url().query(QUrl::FullyEncoded);
        r.query = QUrlQuery(q.replace('+', "%20"));
        if (r.post) {
            if (options_.read_only) return error_reply(403, "read-only", "the server was started with --read-only");
            if (request.value("X-Gounki-Token") != token_)
                return error_reply(403, "bad-token", "a write needs the session token in the X-Gounki-Token header");
            r.body = request.body();
        }
        try {
            return app_.handle(r);
        } catch (const std::exception& e) {
            if (!connection_lost(e)) return error_reply(500, "database", e.what());
            // The server restarted or ended the session: connect again and answer the request.
            print_err("gounki serve: the connection to the database was lost (" + std::string(e.what()) +
                      "); connecting again\n");
            try {
                app_.reconnect();
                return app_.handle(r);
            } catch (const std::exception& again) { return error_reply(500, "database", again.what()); }
        }
    }

    void send(const QHttpServerRequest& request, QTcpSocket* socket, const Reply& r) {
        QHttpServerResponder responder = makeResponder(request, socket);
        responder.writeStatusLine(QHttpServerResponder::StatusCode(r.status));
        responder.writeHeader("Content-Type", r.content_type);
        responder.writeHeader("Content-Length", QByteArray::number(r.body.size()));
        responder.writeHeader("Cache-Control", "no-store");
        responder.writeHeader("X-Content-Type-Options", "nosniff");
        responder.writeHeader("X-Frame-Options", "SAMEORIGIN");
        responder.writeHeader("Content-Security-Policy",
                              "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; "
                              "script-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; form-action 'self'; "
                              "frame-ancestors 'self'; base-uri 'none'");
        for (const auto& [name, value] : r.headers) responder.writeHeader(name, value);
        ConnectionGuard* guard = ConnectionGuard::of(socket);
        const bool close = guard && guard->close_after();
        if (close) responder.writeHeader("Connection", "close");
        if (request.method() != QHttpServerRequest::Method::Head) responder.writeBody(r.body);
        else responder.writeBody(QByteArray());
        if (guard) guard->answered();
        if (close) socket->disconnectFromHost(); // once the answer is written
    }

    App& app_;
    const Options& options_;
    QByteArray token_;
    std::set<QByteArray> allowed_;
    quint16 port_ = 0;
    bool any_address_ = false;
};

// Sends the answers already made (the import that finished as the signal came) to their clients.
void finish_answers(QTcpServer* tcp) {
    tcp->close();
    for (QTcpSocket* socket : tcp->findChildren<QTcpSocket*>()) {
        while (socket->bytesToWrite() > 0 && socket->waitForBytesWritten(5000)) {
        }
        socket->disconnectFromHost();
    }
}

struct Listening {
    QHostAddress address;
    quint16 port = 0;
    qintptr descriptor = -1; // the listening socket, shared by every request thread
    Dispatcher* dispatcher = nullptr;
    int index = 0; // of this thread among the request threads
};

// One more request thread: its own database connection, routes, HTTP server and event loop,
// accepting on a copy of the listening socket (the kernel hands each connection to one of them).
class ServeThread : public QThread {
public:
    ServeThread(const Options& options, QByteArray token, Shared& shared, Listening listening)
        : options_(options), token_(std::move(token)), shared_(shared), listening_(std::move(listening)) {}
    // Starts the thread and waits until it serves; the error that stopped it, or empty.
    std::string begin() {
        start();
        ready_.acquire();
        return error_;
    }

protected:
    void run() override {
        std::unique_ptr<db::GameDatabase> database;
        try {
            database = std::make_unique<db::GameDatabase>(options_.db_path, options_.read_only ? db::Access::read_only
                                                                                              : db::Access::read_write);
        } catch (const std::exception& e) { return fail(e.what()); }
        App app(*database, options_, token_, shared_);
        Server server(app, options_, token_);
        auto* tcp = new GuardedTcpServer(options_.max_upload, options_.idle_timeout_ms, listening_.dispatcher);
        const qintptr copy = ::dup(int(listening_.descriptor));
        if (copy < 0 || !tcp->setSocketDescriptor(copy)) {
            if (copy >= 0) ::close(int(copy));
            delete tcp;
            return fail("cannot share the listening socket with a request thread");
        }
        server.bind(tcp);
        server.allow_hosts(listening_.address, listening_.port);
        listening_.dispatcher->add(listening_.index, tcp);
        ready_.release();
        exec();
        finish_answers(tcp);
    }

private:
    void fail(const std::string& error) {
        error_ = error;
        ready_.release();
    }

    const Options& options_;
    QByteArray token_;
    Shared& shared_;
    Listening listening_;
    QSemaphore ready_;
    std::string error_;
};

int signal_pipe[2] = {-1, -1};

extern "C" void on_signal(int) {
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(signal_pipe[1], &c, 1);
}

// SIGINT and SIGTERM end the event loop between two requests: a request being handled (an import)
// finishes first.
void quit_on_signals() {
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signal_pipe) != 0) return;
    auto* notifier = new QSocketNotifier(signal_pipe[0], QSocketNotifier::Read, QCoreApplication::instance());
    QObject::connect(notifier, &QSocketNotifier::activated, QCoreApplication::instance(), [] { QCoreApplication::quit(); });
    struct sigaction action = {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

std::optional<QHostAddress> host_address(const QString& host) {
    if (host.compare("localhost", Qt::CaseInsensitive) == 0) return QHostAddress(QHostAddress::LocalHost);
    QHostAddress a;
    if (!a.setAddress(host)) return std::nullopt;
    return a;
}

} // namespace

int run(const Options& options) {
    const auto address = host_address(options.host);
    if (!address) {
        print_err("gounki serve: --host must be an IP address or localhost, got '" + options.host.toStdString() + "'\n");
        return exit_usage;
    }
    std::unique_ptr<db::GameDatabase> database;
    try {
        database = std::make_unique<db::GameDatabase>(options.db_path, options.read_only ? db::Access::read_only
                                                                                         : db::Access::read_write);
    } catch (const std::exception& e) {
        print_err(std::string("gounki serve: ") + e.what() + "\n");
        return exit_usage;
    }
    if (!address->isLoopback())
        print_err("gounki serve: warning: listening on " + options.host.toStdString() +
                  ", not only on this machine: anyone who can reach it can read the database" +
                  (options.read_only ? "" : " and import games (with the page's token)") + "\n");
    // The session token of write requests: 128 random bits, a new one at each start.
    QByteArray token;
    for (int i = 0; i < 2; ++i) token += QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
    Shared shared;
    shared.judges = std::make_unique<JudgeRuns>(options, shared.writes);
    App app(*database, options, token, shared);
    Server server(app, options, token);
    Dispatcher dispatcher(options.threads);
    auto* tcp = new GuardedTcpServer(options.max_upload, options.idle_timeout_ms, options.threads > 1 ? &dispatcher : nullptr);
    if (!tcp->listen(*address, options.port)) {
        print_err("gounki serve: cannot listen on " + options.host.toStdString() + ":" + std::to_string(options.port) + ": " +
                  tcp->errorString().toStdString() + "\n");
        delete tcp;
        return exit_usage;
    }
    server.bind(tcp);
    server.allow_hosts(*address, tcp->serverPort());
    // This thread serves too; the others share its listening socket.
    std::vector<std::unique_ptr<ServeThread>> threads;
    dispatcher.add(0, tcp);
    const auto stop_threads = [&threads, &dispatcher] {
        dispatcher.stop(); // no connection handed to a thread that is stopping
        for (auto& t : threads) t->quit(); // each ends after the request it is handling
        for (auto& t : threads) t->wait();
    };
    for (int i = 1; i < options.threads; ++i) {
        threads.push_back(std::make_unique<ServeThread>(options, token, shared,
                                                        Listening{*address, tcp->serverPort(), tcp->socketDescriptor(), &dispatcher, i}));
        if (const std::string e = threads.back()->begin(); !e.empty()) {
            stop_threads();
            print_err("gounki serve: " + e + "\n");
            return exit_usage;
        }
    }
    quit_on_signals();
    const QString shown = address->protocol() == QAbstractSocket::IPv6Protocol ? "[" + address->toString() + "]" : options.host;
    print_out("listening on http://" + shown.toStdString() + ":" + std::to_string(tcp->serverPort()) + "/\n");
    std::fflush(stdout);
    const int code = QCoreApplication::exec();
    stop_threads();
    finish_answers(tcp);
    shared.judges.reset(); // a game being judged stops at its next ply, unstored
    print_info("gounki serve: stopped\n");
    return code == 0 ? exit_ok : exit_usage;
}

} // namespace gounki::cli::serve
