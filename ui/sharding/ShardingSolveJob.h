#pragma once

#include "jobs/JobTracker.h"
#include "solver/ShardingSolution.h"
#include "solver/ShardingProblem.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <memory>
#include <stop_token>

namespace tapestry {

// What a finished solve hands back: the solver's assignment, evaluated.
struct SolveOutcome {
    ShardingSolution solution;
    double seconds = 0;
    bool cancelled = false;
    bool provenOptimal = false;
    CostSum lowerBound = 0;  // SolverResult::lowerBound
};

// Runs solveShardingProblem off the GUI thread, one solve at a time from the caller's
// view: a new start() stops and supersedes the running one, whose late reports are
// dropped. Improvements of the best cost are reported a few times a second at most.
class ShardingSolveJob : public QObject {
    Q_OBJECT

public:
    using JobId = quint64;

    explicit ShardingSolveJob(QObject* parent = nullptr);
    // Stops a running solve and waits for it: the worker reports to this object.
    ~ShardingSolveJob() override;

    JobId start(std::shared_ptr<const ShardingProblem> problem, double timeLimitSeconds);
    // Asks the running solve to stop; it finishes with the best feasible assignment so far.
    void cancel();
    [[nodiscard]] bool isBusy() const { return jobs_.isBusy(); }

signals:
    // The best cost found so far, `elapsedSeconds` after the start.
    void improved(double elapsedSeconds, double cost);
    // A higher lower bound on the optimum, `elapsedSeconds` after the start.
    void bounded(double elapsedSeconds, double lowerBound);
    void finished(std::shared_ptr<const tapestry::SolveOutcome> outcome);
    // `problem` and `detail` are translated text (see ErrorText).
    void failed(const QString& problem, const QString& detail);

private:
    JobTracker jobs_;
    std::stop_source stop_;
    QList<QFuture<void>> running_;  // waited for on destruction
};

}  // namespace tapestry
