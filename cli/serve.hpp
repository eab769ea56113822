#pragma once
// `gounki serve`: a local web app on Qt HTTP Server. serve_server.cpp is the network side (the
// connection guard with its size limit and idle timeout, the Host and token checks, writing
// replies); serve_api.cpp answers /api/ with the JSON objects the commands print (cli/views.hpp);
// serve_pages.cpp writes the HTML pages. Requests are handled one at a time on the event loop, so
// an import is never cut by a shutdown, and a slow client only holds its own connection.

#include <QByteArray>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>
#include <QUrlQuery>

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
    App(db::GameDatabase& database, const Options& options, QByteArray token)
        : db_(database), options_(options), token_(std::move(token)) {}
    Reply handle(const Request& r);

private:
    Reply api_games(const Request& r);
    Reply api_game(std::int64_t id);
    Reply api_search(const Request& r);
    Reply api_tree(const Request& r);
    Reply api_import(const Request& r);
    Reply api_report(std::int64_t id, const Request& r);
    Reply page_games(const Request& r);
    Reply page_game(std::int64_t id);
    Reply page_search(const Request& r);
    Reply page_explorer(const Request& r);
    Reply page_import();
    std::string page(const std::string& title, const std::string& body) const;

    db::GameDatabase& db_;
    const Options& options_;
    QByteArray token_;
};

// Reading query values the way the API and the pages both do; each returns "" or what is wrong.
std::string read_paging_values(const Request& r, db::Paging& paging);
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
