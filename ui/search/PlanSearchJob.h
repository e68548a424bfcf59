#pragma once

#include "jobs/JobTracker.h"
#include "search/SearchPhase.h"
#include "search/SearchSetup.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <string>

namespace tapestry {

struct FoldedModel;
struct SearchOutcome;

// Runs a SearchSession off the GUI thread, one search at a time from the caller's view: a
// new start() cancels and supersedes the running one, whose late reports are dropped.
// Each change (a mesh's expert plans priced, a better plan found) arrives as a new
// immutable SearchOutcome snapshot. Progress and best-so-far reports are throttled to a
// few per second.
class PlanSearchJob : public QObject {
    Q_OBJECT

public:
    using JobId = quint64;

    explicit PlanSearchJob(QObject* parent = nullptr);
    // Cancels a running search and waits for it: the worker reports to this object.
    ~PlanSearchJob() override;

    // Copies the inputs and starts the search on the thread pool; returns the job's id.
    JobId start(std::shared_ptr<const FoldedModel> folded, SearchSetup setup);
    // Asks the running search to stop; it finishes with the best plan found so far.
    void cancel();
    // Cancels the running search and drops everything it would still report (its model
    // is gone).
    void discard();
    [[nodiscard]] bool isBusy() const { return jobs_.isBusy(); }
    // How a finished search ended, translated: its time, cancelled, or why nothing fits.
    [[nodiscard]] static QString message(const SearchOutcome& results);

signals:
    // `phase` is translated; `fraction` in [0, 1].
    void progressed(const QString& phase, double fraction);
    // A snapshot while the search runs (expert plans, best so far), then the final one.
    void resultsChanged(std::shared_ptr<const tapestry::SearchOutcome> results);
    void finished(std::shared_ptr<const tapestry::SearchOutcome> results);
    // `problem` and `detail` are translated text (see ErrorText).
    void failed(const QString& problem, const QString& detail);

private:
    // `phase` is translated, with the mesh being searched when there are several.
    void report(JobId job, const QString& phase, double fraction);
    void publish(JobId job, std::shared_ptr<const SearchOutcome> results);

    JobTracker jobs_;
    QList<QFuture<void>> running_;  // waited for on destruction
};

}  // namespace tapestry
