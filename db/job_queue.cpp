#include "db/job_queue.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

namespace gounki::db {

const char jobs_schema_sql_v6[] = R"sql(
-- Migration 6: analysis jobs (db/job_queue.hpp). One row per game and settings text: `analyze
-- --queue` adds them, `gounki worker` claims them under a lease and marks them done when it stores
-- the judgement. options: the analyze options that rebuild the settings (a JSON array of
-- arguments); engine_command: the external engine's command line, if any; plies: the game's, for
-- rates and the time left. Times are seconds since 1970 (UTC) by the database's clock.
CREATE TABLE jobs (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    settings       TEXT NOT NULL,
    options        TEXT NOT NULL,
    engine_command TEXT,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts       INTEGER NOT NULL,
    last_error     TEXT,
    lease_owner    TEXT,
    lease_token    TEXT,
    lease_expiry   REAL,
    plies          INTEGER NOT NULL,
    created        REAL NOT NULL,
    started        REAL,
    finished       REAL,
    UNIQUE (game_id, settings)
) STRICT;
CREATE INDEX jobs_open ON jobs (id) WHERE state IN ('queued', 'running');
CREATE INDEX jobs_finished ON jobs (finished) WHERE state = 'done';
PRAGMA user_version = 6;
)sql";

const char* job_state_name(JobState s) {
    switch (s) {
    case JobState::queued: return "queued";
    case JobState::running: return "running";
    case JobState::done: return "done";
    case JobState::failed: return "failed";
    }
    return "?";
}

std::string new_lease_token() {
    std::random_device rd;
    std::uniform_int_distribution<std::uint64_t> any;
    char text[40];
    std::snprintf(text, sizeof text, "%016llx%016llx", (unsigned long long)any(rd), (unsigned long long)any(rd));
    return text;
}

std::string JobQueue::now() const {
    return db_.is_postgres() ? "CAST(extract(epoch FROM clock_timestamp()) AS DOUBLE PRECISION)"
                             : "((julianday('now') - 2440587.5) * 86400.0)";
}

JobQueue::Added JobQueue::add(std::int64_t game_id, const std::string& settings, const std::string& options,
                              const std::string& engine_command, bool force) {
    Statement ins(db_, "INSERT INTO jobs (game_id, settings, options, engine_command, state, attempts, plies, created) "
                       "SELECT ?1, ?2, ?3, NULLIF(?4, ''), 'queued', 0, ply_count, " + now() +
                       " FROM games WHERE id = ?1 ON CONFLICT (game_id, settings) DO NOTHING");
    ins.bind(1, game_id).bind(2, settings).bind(3, options).bind(4, engine_command).run();
    if (db_.changes() == 1) return Added::queued;
    std::string state;
    {
        Statement st(db_, "SELECT state FROM jobs WHERE game_id = ?1 AND settings = ?2");
        st.bind(1, game_id).bind(2, settings);
        if (!st.step()) return Added::no_game; // no such game: the INSERT found no row to copy
        state = st.get_string(0);
    }
    if (!force && (state == "queued" || state == "running")) return Added::already_open;
    if (!force && state == "failed") return Added::failed_before;
    Statement again(db_, "UPDATE jobs SET state = 'queued', attempts = 0, last_error = NULL, lease_owner = NULL, "
                         "lease_token = NULL, lease_expiry = NULL, options = ?3, engine_command = NULLIF(?4, ''), "
                         "created = " + now() + ", started = NULL, finished = NULL WHERE game_id = ?1 AND settings = ?2");
    again.bind(1, game_id).bind(2, settings).bind(3, options).bind(4, engine_command).run();
    return Added::queued;
}

std::optional<ClaimedJob> JobQueue::claim(const std::string& owner, double lease_seconds) {
    Transaction tx(db_, TransactionKind::job);
    {
        Statement given_up(db_, "UPDATE jobs SET state = 'failed', finished = " + now() +
                                    ", lease_token = NULL, lease_expiry = NULL, last_error = 'the lease ran out ' || "
                                    "CAST(attempts AS TEXT) || ' times (the worker was stopped, killed or cut off)' "
                                    "WHERE state = 'running' AND lease_expiry < " + now() + " AND attempts >= ?1");
        given_up.bind(1, job_max_attempts).run();
    }
    std::optional<ClaimedJob> job;
    {
        Statement pick(db_, "SELECT id, game_id, settings, options, attempts FROM jobs WHERE state IN ('queued', 'running') "
                            "AND (state = 'queued' OR lease_expiry < " + now() + ") ORDER BY id LIMIT 1" +
                                (db_.is_postgres() ? " FOR UPDATE SKIP LOCKED" : ""));
        if (pick.step())
            job = ClaimedJob{pick.get_int64(0), pick.get_int64(1), pick.get_string(2), pick.get_string(3),
                             new_lease_token(), pick.get_int(4) + 1};
    }
    if (job) {
        Statement take(db_, "UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?2, lease_token = ?3, "
                            "lease_expiry = " + now() + " + ?4, started = " + now() + " WHERE id = ?1");
        take.bind(1, job->id).bind(2, owner).bind(3, job->token).bind(4, lease_seconds).run();
    }
    tx.commit();
    return job;
}

bool JobQueue::any_open() {
    Statement st(db_, "SELECT 1 FROM jobs WHERE state IN ('queued', 'running') LIMIT 1");
    return st.step();
}

bool JobQueue::renew(const ClaimedJob& job, double lease_seconds) {
    Statement st(db_, "UPDATE jobs SET lease_expiry = " + now() +
                          " + ?3 WHERE id = ?1 AND lease_token = ?2 AND state = 'running'");
    st.bind(1, job.id).bind(2, job.token).bind(3, lease_seconds).run();
    return db_.changes() == 1;
}

bool JobQueue::mark_done(const ClaimedJob& job, std::int64_t plies) {
    Statement st(db_, "UPDATE jobs SET state = 'done', finished = " + now() +
                          ", plies = ?3, lease_token = NULL, lease_expiry = NULL WHERE id = ?1 AND lease_token = ?2 "
                          "AND state = 'running'");
    st.bind(1, job.id).bind(2, job.token).bind(3, plies).run();
    return db_.changes() == 1;
}

bool JobQueue::mark_failed(const ClaimedJob& job, const std::string& error) {
    Statement st(db_, "UPDATE jobs SET state = CASE WHEN attempts >= ?4 THEN 'failed' ELSE 'queued' END, last_error = ?3, "
                      "finished = CASE WHEN attempts >= ?4 THEN " + now() + " ELSE NULL END, "
                      "lease_token = NULL, lease_expiry = NULL WHERE id = ?1 AND lease_token = ?2 AND state = 'running'");
    st.bind(1, job.id).bind(2, job.token).bind(3, error).bind(4, job_max_attempts).run();
    return job.attempts < job_max_attempts;
}

void JobQueue::release(const ClaimedJob& job) {
    Statement st(db_, "UPDATE jobs SET state = 'queued', attempts = attempts - 1, lease_owner = NULL, lease_token = NULL, "
                      "lease_expiry = NULL WHERE id = ?1 AND lease_token = ?2 AND state = 'running'");
    st.bind(1, job.id).bind(2, job.token).run();
}

JobCounts JobQueue::counts(double window_seconds) {
    JobCounts c;
    Transaction tx(db_, TransactionKind::deferred);
    {
        Statement st(db_, "SELECT state, count(*), coalesce(sum(plies), 0) FROM jobs GROUP BY state");
        while (st.step()) {
            const std::string_view state = st.get_text(0);
            const std::int64_t n = st.get_int64(1), plies = st.get_int64(2);
            if (state == "queued") c.queued = n;
            else if (state == "running") c.running = n;
            else if (state == "done") c.done = n;
            else if (state == "failed") c.failed = n;
            if (state == "queued" || state == "running") c.queued_plies += plies;
            if (state == "done") c.done_plies = plies;
        }
    }
    {
        // The rate over the window, or over the time since the first of those jobs started when
        // that is shorter (a run that began a minute ago).
        Statement at(db_, "SELECT " + now());
        const double now_seconds = at.step() ? at.get_double(0) : 0;
        const double since = now_seconds - window_seconds;
        Statement st(db_, "SELECT count(*), coalesce(sum(plies), 0), min(started) FROM jobs WHERE state = 'done' AND finished >= ?1");
        st.bind(1, since);
        if (st.step()) {
            c.recent_jobs = st.get_int64(0);
            c.recent_plies = st.get_int64(1);
            c.window = now_seconds - (st.is_null(2) ? since : std::max(since, st.get_double(2)));
        }
    }
    tx.commit();
    return c;
}

std::vector<JobRow> JobQueue::list(JobState state, int limit) {
    Statement st(db_, "SELECT id, game_id, state, settings, coalesce(engine_command, ''), coalesce(last_error, ''), "
                      "coalesce(lease_owner, ''), attempts, coalesce(lease_expiry - " + now() + ", 0) FROM jobs "
                      "WHERE state = ?1 ORDER BY id LIMIT ?2");
    st.bind(1, job_state_name(state)).bind(2, limit);
    std::vector<JobRow> out;
    while (st.step())
        out.push_back({st.get_int64(0), st.get_int64(1), st.get_string(2), st.get_string(3), st.get_string(4),
                       st.get_string(5), st.get_string(6), st.get_int(7), st.get_double(8)});
    return out;
}

std::int64_t JobQueue::retry_failed() {
    Statement st(db_, "UPDATE jobs SET state = 'queued', attempts = 0, finished = NULL WHERE state = 'failed'");
    st.run();
    return db_.changes();
}

std::int64_t JobQueue::clear_done() {
    Statement st(db_, "DELETE FROM jobs WHERE state = 'done'");
    st.run();
    return db_.changes();
}

} // namespace gounki::db
