#include "sharding/ShardingSolveJob.h"

#include "jobs/BackgroundTask.h"
#include "common/ErrorText.h"
#include "jobs/JobOutcome.h"
#include "solver/ShardingSolver.h"


#include <chrono>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;
// Faster reports only keep the GUI thread busy; the final cost comes with the result.
constexpr auto kReportInterval = std::chrono::milliseconds(100);

}  // namespace

ShardingSolveJob::ShardingSolveJob(QObject* parent) : QObject(parent) {}

ShardingSolveJob::~ShardingSolveJob()
{
    cancel();
    for (QFuture<void>& future : running_)
        future.waitForFinished();
}

ShardingSolveJob::JobId ShardingSolveJob::start(std::shared_ptr<const ShardingProblem> problem, double timeLimitSeconds)
{
    cancel();
    running_.removeIf([](const QFuture<void>& future) { return future.isFinished(); });
    const JobId job = jobs_.start().id;
    stop_ = std::stop_source();
    // The worker posts to this object; the destructor waits for it, so `this` outlives it.
    auto report = [this, job](double seconds, double value, bool isBound) {
        QMetaObject::invokeMethod(
            this,
            [this, job, seconds, value, isBound] {
                if (!jobs_.isCurrent(job))
                    return;
                if (isBound)
                    emit bounded(seconds, value);
                else
                    emit improved(seconds, value);
            },
            Qt::QueuedConnection);
    };
    using Outcome = JobOutcome<std::shared_ptr<const SolveOutcome>>;
    QFuture<Outcome> future = runInBackground(this, [problem = std::move(problem), timeLimitSeconds,
                                                     stop = stop_.get_token(), report] {
        return Outcome::catching([&] {
            SolverOptions options;
            options.timeLimitSeconds = timeLimitSeconds;
            options.stop = stop;
            Clock::time_point lastReport;
            options.progress = [&](double seconds, CostSum cost) {
                if (Clock::now() - lastReport < kReportInterval)
                    return;
                lastReport = Clock::now();
                report(seconds, static_cast<double>(cost), false);
            };
            options.bounded = [&](double seconds, CostSum bound) { report(seconds, static_cast<double>(bound), true); };
            const Clock::time_point start = Clock::now();
            const SolverResult result = solveShardingProblem(*problem, options);
            auto outcome = std::make_shared<SolveOutcome>();
            outcome->seconds = std::chrono::duration<double>(Clock::now() - start).count();
            outcome->cancelled = result.cancelled;
            outcome->provenOptimal = result.provenOptimal;
            outcome->lowerBound = result.lowerBound;
            outcome->solution = ShardingSolution::evaluate(*problem, result.assignment);
            return std::shared_ptr<const SolveOutcome>(std::move(outcome));
        });
    }, [this, job](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // superseded by a newer solve
        if (outcome.value)
            emit finished(*outcome.value);
        else if (outcome.error)
            emit failed(ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error));
        else
            emit failed(tr("The solver stopped with an unexpected error."), outcome.unexpected);
    });
    running_.append(QFuture<void>(future));
    return job;
}

void ShardingSolveJob::cancel()
{
    stop_.request_stop();
}

}  // namespace tapestry
