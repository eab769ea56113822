#pragma once
// Analysis as jobs: `gounki analyze --queue` records one job per game and settings text, and any
// number of `gounki worker` processes (on any machine, for a PostgreSQL database) claim them under
// a lease, judge, and store the judgement and mark the job done in one transaction that first
// checks the lease is still theirs. A worker that dies or is cut off loses only its lease: the job
// is claimed again once the lease has run out, and a game is never stored by two workers.
//
// Times are seconds since 1970 (UTC) from the database's clock (the server's for PostgreSQL, so
// workers on machines with clocks that disagree still agree on leases).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/sqlite.hpp"

namespace gounki::db {

// Migration 6: the jobs table.
extern const char jobs_schema_sql_v6[];

// How many times a job is tried (a failed judgement, or a lease that ran out) before it is kept as failed.
inline constexpr int job_max_attempts = 3;

enum class JobState { queued, running, done, failed };
const char* job_state_name(JobState s);

// One job as a worker holds it after claiming.
struct ClaimedJob {
    std::int64_t id = 0, game_id = 0;
    std::string settings; // the settings text the judgement is stored under (analysis_settings_text)
    std::string options; // what rebuilds the settings: the analyze options, a JSON array of arguments
    std::string token; // this claim's lease token
    int attempts = 0; // counting this one
};

// A job as `gounki jobs` lists it.
struct JobRow {
    std::int64_t id = 0, game_id = 0;
    std::string state, settings, engine_command, error, owner;
    int attempts = 0;
    double lease_left = 0; // seconds until the lease runs out (negative: ran out)
};

struct JobCounts {
    std::int64_t queued = 0, running = 0, done = 0, failed = 0;
    // Finished in the last `window` seconds: jobs and their plies.
    std::int64_t recent_jobs = 0, recent_plies = 0;
    double window = 0;
    std::int64_t queued_plies = 0; // the plies of the games still queued or running
    std::int64_t done_plies = 0;
};

class JobQueue {
public:
    explicit JobQueue(Database& db) : db_(db) {}

    // What add() did.
    enum class Added { queued, already_open, failed_before, no_game };
    // Records the job of a game and settings text. An existing job of the pair that is queued or
    // running is left alone (already_open), a failed one too (failed_before), unless `force`; a done
    // one, or any with `force`, is queued again with its attempts and error cleared. A game that is
    // not in the database (deleted since it was chosen) gets no job (no_game).
    Added add(std::int64_t game_id, const std::string& settings, const std::string& options,
              const std::string& engine_command, bool force);

    // Claims the oldest job that is queued or whose lease ran out, for `owner`, with a new lease of
    // `lease_seconds`, in one short transaction (PostgreSQL: FOR UPDATE SKIP LOCKED, so claimers
    // never wait for one another; SQLite: BEGIN IMMEDIATE). A job whose lease ran out after its
    // last attempt is set failed on the way. Nothing to claim: nullopt.
    std::optional<ClaimedJob> claim(const std::string& owner, double lease_seconds);
    // Whether any job is queued or running (a worker waits for running ones: their leases may run out).
    bool any_open();
    // Moves the lease on; false when the job is no longer this claim's (another worker took it).
    bool renew(const ClaimedJob& job, double lease_seconds);
    // Inside the caller's transaction, before it stores the judgement: marks the job done if it is
    // still this claim's; false (store nothing, roll back) when it is not.
    bool mark_done(const ClaimedJob& job, std::int64_t plies);
    // A failed attempt: queued again (true) while attempts remain, else kept as failed with its error
    // (false). Does nothing when the job is no longer this claim's.
    bool mark_failed(const ClaimedJob& job, const std::string& error);
    // Gives the job back untried (a worker stopping): queued again, this attempt not counted.
    void release(const ClaimedJob& job);

    JobCounts counts(double window_seconds);
    std::vector<JobRow> list(JobState state, int limit);
    // Failed jobs queued again with their attempts cleared; how many.
    std::int64_t retry_failed();
    // Done jobs deleted (their judgements stay); how many.
    std::int64_t clear_done();

private:
    std::string now() const; // the SQL expression of the time now
    Database& db_;
};

// A new random lease token (hex).
std::string new_lease_token();

} // namespace gounki::db
