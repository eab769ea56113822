#pragma once
// `gounki serve`: a local web app on Qt HTTP Server. serve_server.cpp is the network side (the
// connection guard with its size limit and idle timeout, the request threads and the dispatcher
// spreading connections among them, the Host and token checks, writing replies); serve_api.cpp
// answers /api/ with the JSON objects the commands print (cli/views.hpp); serve_pages.cpp writes
// the HTML pages; serve_judge.cpp judges a game in the background. Requests are served by
// --threads threads, each with its own event loop, HTTP server and database connection, all
// accepting on one listening socket; a thread handles its requests one at a time, so an import is
// never cut by a shutdown, and a slow client only holds its own connection. Writes (an import,
// storing a judgement) take one lock: one at a time.

#include <QByteArray>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>
#include <QUrlQuery>

#include <QElapsedTimer>
#include <QThreadPool>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/any_position.hpp"
#include "db/game_db.hpp"

namespace gounki::cli::serve {

struct Options {
    std::string db_path;
    QString host = "127.0.0.1";
    quint16 port = 8080;
    bool read_only = false;
    qint64 max_upload = qint64(64) << 20; // request bodies beyond this get 413
    int idle_timeout_ms = 30000; // a connection silent this long in the middle of a request is dropped
    int threads = 1; // request threads, each with its own database connection
};

// The background judging of games ("judge this game"): one game at a time on a thread of its own,
// with the default settings of `gounki analyze`, stored as it stores them. A game asked for again
// while queued or judged is not started twice.
class JudgeRuns {
public:
    JudgeRuns(const Options& options, std::mutex& writes);
    ~JudgeRuns(); // stops: the run under way ends at its next ply, unstored; queued ones never start
    struct State {
        std::string state = "none"; // none, queued, running, done, failed
        int plies = 0, plies_done = 0;
        qint64 elapsed_ms = 0;
        std::string error; // failed: what went wrong
    };
    // Queues the game unless it is queued or running; true when queued now.
    bool start(std::int64_t id, int plies);
    // The run of the game, or nullopt when none was started (or the last one finished well).
    std::optional<State> state(std::int64_t id);

private:
    struct Run {
        std::string state = "queued";
        int plies = 0;
        std::atomic<int> plies_done{0};
        QElapsedTimer timer;
        std::string error;
    };
    void judge_one(std::int64_t id, Run& run);

    const Options& options_;
    std::mutex& writes_;
    std::mutex mutex_;
    std::map<std::int64_t, std::unique_ptr<Run>> runs_;
    std::atomic<bool> stopping_{false};
    QThreadPool pool_;
};

// What the request threads share: the write lock and the judging runs.
struct Shared {
    std::mutex writes;
    std::unique_ptr<JudgeRuns> judges;
};

struct Reply {
    int status = 200;
    QByteArray content_type = "application/json";
    QByteArray body;
    std::vector<std::pair<QByteArray, QByteArray>> headers;
};

Reply json_reply(const QJsonObject& o, int status = 200);
// { "error": { "code": CODE, "message": MESSAGE } }
Reply error_reply(int status, const std::string& code, const std::string& message);
Reply html_reply(const std::string& html, int status = 200);

struct Request {
    bool post = false;
    QString path; // decoded, as the client sent it
    QUrlQuery query; // '+' already read as a blank, as forms send it
    QByteArray body;
    // The query parameter `name`, decoded; nullopt when absent (a parameter given empty counts as absent).
    std::optional<QString> param(const char* name) const;
};

// The routes: fixed paths only, nothing a client sends names a file.
class App {
public:
    App(db::GameDatabase& database, const Options& options, QByteArray token, Shared& shared)
        : db_(database), options_(options), token_(std::move(token)), shared_(shared) {}
    Reply handle(const Request& r);

private:
    Reply api_games(const Request& r);
    Reply api_game(std::int64_t id);
    Reply api_search(const Request& r);
    Reply api_tree(const Request& r);
    Reply api_import(const Request& r);
    Reply api_report(std::int64_t id, const Request& r);
    Reply api_judge(std::int64_t id, const Request& r);
    Reply page_games(const Request& r);
    Reply page_game(std::int64_t id);
    Reply page_search(const Request& r);
    Reply page_explorer(const Request& r);
    Reply page_import();
    std::string page(const std::string& title, const std::string& body) const;

    db::GameDatabase& db_;
    const Options& options_;
    QByteArray token_;
    Shared& shared_;
};

// Reading query values the way the API and the pages both do; each returns "" or what is wrong.
std::string read_paging_values(const Request& r, db::Paging& paging);
// after=ID (keyset paging of the id order: the games after game ID, as fast deep in the list as at
// its start): narrows the filter's id bounds; sets `after` (0 when not given).
std::string read_after_value(const Request& r, db::GameFilter& filter, std::int64_t& after);
// position=TEXT (any game; default the start of game=KIND, else Gounki) then moves=LIST played from it.
std::string read_position_values(const Request& r, AnyPosition& pos, bool& given);
// A whole game id from the path ("12"), or 0.
std::int64_t path_id(const QString& text);
// Text made safe inside HTML.
std::string escape(const std::string& text);
// A query value for a link (percent-encoded).
std::string url_value(const std::string& text);

// Runs the server until SIGINT or SIGTERM; returns the exit code. Prints "listening on
// http://HOST:PORT/" on stdout once it accepts connections.
int run(const Options& options);

} // namespace gounki::cli::serve
