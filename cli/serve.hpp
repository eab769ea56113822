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

#include "cli/db_options.hpp"
#include "cli/judging.hpp"
#include "cli/views.hpp"
#include "core/any_position.hpp"
#include "db/game_db.hpp"

namespace gounki::cli::serve {

struct Options {
    std::string db_path;
    QString host = "127.0.0.1";
    quint16 port = 8080;
    bool read_only = false;
    qint64 max_upload = qint64(64) << 20; // request bodies beyond this get 413
    int idle_timeout_ms = 30000; // a connection keeping the server waiting this long (--idle-timeout) is dropped
    int threads = 1; // request threads, each with its own database connection
    // "Judge this game": the settings of `gounki analyze` with these judging options (--judge-options,
    // as typed: empty for the defaults), the settings texts filled in.
    JudgeSetup judging = [] {
        JudgeSetup s;
        s.set_texts(nullptr);
        return s;
    }();
    std::string judge_options;
};

// The background judging of games ("judge this game"): one game at a time on a thread of its own,
// with the settings of `gounki analyze` (Options::judging), stored as it stores them. A game asked for again
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

// Answers the request threads share while the database is unchanged: explorer trees by position,
// game counts by filter. Every request first reads its connection's change_version(): when it
// differs from what that connection saw last (another connection committed: another request
// thread, the judging, another program; or this one wrote), everything kept is dropped. Answers
// are kept under the generation read before they were computed, and one computed in an older
// generation is never kept nor served. Without a change version (PostgreSQL) nothing is kept.
class AnswerCache {
public:
    using Version = std::pair<std::int64_t, std::int64_t>;
    static constexpr std::uint64_t none = 0; // the generation of a connection without a change version
    // The generation of answers read now; `seen` is the connection's last version, updated.
    std::uint64_t generation(std::optional<Version>& seen, const std::optional<Version>& now);
    std::shared_ptr<const db::Tree> tree(const std::string& position, std::uint64_t generation);
    void keep_tree(const std::string& position, std::shared_ptr<const db::Tree> tree, std::uint64_t generation);
    std::optional<std::int64_t> count(const std::string& filter, std::uint64_t generation);
    void keep_count(const std::string& filter, std::int64_t count, std::uint64_t generation);
    // Anchors of offset paging in a list (a filter and an order): the id of the game at an offset.
    // The anchor nearest at or below `offset`, as (its offset, its id).
    std::optional<std::pair<std::int64_t, std::int64_t>> anchor(const std::string& list, std::int64_t offset, std::uint64_t generation);
    void keep_anchor(const std::string& list, std::int64_t offset, std::int64_t id, std::uint64_t generation);

private:
    static constexpr std::size_t max_entries = 4096; // per kind; beyond it the kind starts afresh
    std::mutex mutex_;
    std::uint64_t generation_ = 1;
    std::map<std::string, std::shared_ptr<const db::Tree>> trees_;
    std::map<std::string, std::int64_t> counts_;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> anchors_;
    std::size_t anchor_count_ = 0;
};

// What the request threads share: the write lock, the judging runs and the answers kept.
struct Shared {
    std::mutex writes;
    std::unique_ptr<JudgeRuns> judges;
    AnswerCache answers;
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
    // A yes-or-no parameter (cli::read_flag): a bare name (`?desc`), 1, true or yes: on; absent,
    // given empty (`desc=`), 0, false or no: off. "" when read, else what is wrong.
    std::string flag(const char* name, bool& on) const;
    // The values as read_filter_values reads them: param(), but a yes-or-no value given as a bare
    // name is "" (on, as a flag).
    ValueLookup lookup() const;
};

// The routes: fixed paths only, nothing a client sends names a file.
class App {
public:
    App(db::GameDatabase& database, const Options& options, QByteArray token, Shared& shared)
        : db_(database), options_(options), token_(std::move(token)), shared_(shared) {}
    Reply handle(const Request& r);
    // After a lost connection to the database server: this thread's connection made again.
    void reconnect() {
        db_.reconnect();
        seen_.reset();
    }

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
    // The tree of `pos` and the list of games, through the answers kept (Shared::answers).
    std::shared_ptr<const db::Tree> tree(const AnyPosition& pos, bool symmetric);
    db::GameList list_games(const db::GameFilter& filter, const db::Paging& paging);

    db::GameDatabase& db_;
    const Options& options_;
    QByteArray token_;
    Shared& shared_;
    std::optional<AnswerCache::Version> seen_; // this connection's change version at its last request
};

// Reading query values the way the API and the pages both do; each returns "" or what is wrong.
std::string read_paging_values(const Request& r, db::Paging& paging);
// Keyset paging of the id order (as fast deep in the list as at its start): after=ID, the games
// after game ID; before=ID, the games just before it (the previous page). Narrows the filter's id
// bounds (before also reverses its order, turned back by restore once the page is read).
struct Keyset {
    std::int64_t after = 0, before = 0; // 0: not given
    void restore(db::GameFilter& filter, db::GameList& list) const;
};
std::string read_keyset_values(const Request& r, db::GameFilter& filter, Keyset& keyset);
// position=TEXT (any game; default the start of game=KIND, else Gounki) then moves=LIST played from it.
std::string read_position_values(const Request& r, AnyPosition& pos, bool& given);
// The yes-or-no value `symmetric` of /api/tree and /explorer for `pos` (refused for Gounki), or
// what is wrong with it.
std::string read_symmetric_value(const Request& r, const AnyPosition& pos, bool& symmetric);
// The search of /search and /api/search into `query`: the position read by read_position_values
// (when `by_position`), or pattern=SPEC, or opening=NAME (for the games `filter` keeps); one of them.
std::string read_search_values(const Request& r, const AnyPosition& pos, bool by_position, const db::GameFilter& filter,
                               SearchQuery& query);
// The methods a path takes, as a 405 answer's Allow header lists them ("GET, HEAD").
QByteArray allowed_methods(const QString& path);
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
