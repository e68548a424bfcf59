#include "search/PlanSearchJob.h"

#include "search/ClusterPanel.h"

#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "common/ErrorText.h"
#include "common/QuantityFormat.h"
#include "fold/FoldedModel.h"
#include "search/SearchOutcome.h"
#include "base/Error.h"
#include "search/SearchSession.h"
#include "search/SearchWorkloadCheck.h"
#include "cluster/MeshText.h"

#include <QStringList>

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;
// Reports faster than this only make the GUI thread busy; the eye sees no difference.
constexpr auto kReportInterval = std::chrono::milliseconds(100);

QString phaseText(SearchPhase phase)
{
    switch (phase) {
    case SearchPhase::ExpertPlans: return PlanSearchJob::tr("Pricing the expert plans");
    case SearchPhase::Grouping: return PlanSearchJob::tr("Grouping decisions");
    case SearchPhase::Searching: return PlanSearchJob::tr("Searching");
    case SearchPhase::SmallestPeak: return PlanSearchJob::tr("Looking for the smallest peak memory");
    case SearchPhase::Alternatives: return PlanSearchJob::tr("Finding alternatives that use less memory");
    case SearchPhase::Baseline: return PlanSearchJob::tr("Searching the whole graph for comparison");
    case SearchPhase::Comparison: return PlanSearchJob::tr("Searching without context or expert parallelism, to compare");
    case SearchPhase::Done: return PlanSearchJob::tr("Done");
    }
    return {};
}

}  // namespace

PlanSearchJob::PlanSearchJob(QObject* parent) : QObject(parent) {}

PlanSearchJob::~PlanSearchJob()
{
    cancel();
    for (QFuture<void>& future : running_)
        future.waitForFinished();
}

PlanSearchJob::JobId PlanSearchJob::start(std::shared_ptr<const FoldedModel> folded, SearchSetup setup)
{
    running_.removeIf([](const QFuture<void>& future) { return future.isFinished(); });
    const JobTracker::Ticket ticket = jobs_.start();
    const JobId job = ticket.id;
    const std::shared_ptr<std::atomic_bool> cancelled = ticket.cancelled;
    // The worker posts to this object; the destructor waits for it, so `this` outlives it.
    // "3 of 12 meshes searched · dp=4,tp=4: Searching" where the setup has several meshes.
    QStringList meshes;
    for (const std::vector<MeshAxis>& axes : setup.meshes())
        meshes << QString::fromStdString(meshText(axes));
    // `total` is the snapshots' count (the setup's meshes less pipelines longer than the
    // model has blocks; those come last), 0 before the first.
    auto report = [this, job, meshes](const SearchProgress& progress, std::size_t searched, std::size_t total) {
        QString text = phaseText(progress.phase);
        if (meshes.size() > 1 && progress.mesh < static_cast<std::size_t>(meshes.size()) &&
            progress.phase != SearchPhase::Done) {
            const QString& mesh = meshes[static_cast<qsizetype>(progress.mesh)];
            text = total == 0 ? tr("%1: %2").arg(mesh, text)
                              : tr("%1 of %2 meshes searched · %3: %4").arg(searched).arg(total).arg(mesh, text);
        }
        QMetaObject::invokeMethod(
            this, [this, job, text, fraction = progress.fraction] { PlanSearchJob::report(job, text, fraction); },
            Qt::QueuedConnection);
    };
    auto publish = [this, job](std::shared_ptr<const SearchOutcome> results) {
        QMetaObject::invokeMethod(this, [this, job, results] { PlanSearchJob::publish(job, results); },
                                  Qt::QueuedConnection);
    };
    // A workload that contradicts itself is refused as the CLI refuses it, naming the
    // cluster panel's fields (the only ones a search's workload comes from).
    const WorkloadFieldNames names = ClusterPanel::workloadFieldNames();
    using Outcome = JobOutcome<std::shared_ptr<const SearchOutcome>>;
    QFuture<Outcome> future = runInBackground(this, [folded = std::move(folded), setup = std::move(setup), names,
                                                     cancelled, report, publish]() mutable {
        return Outcome::catching([&] {
            checkSearchWorkload(*folded, setup, names);
            SearchSessionCallbacks callbacks;
            callbacks.cancelled = [cancelled] { return cancelled->load(); };
            Clock::time_point lastReport;
            SearchPhase lastPhase = SearchPhase::Done;
            // The meshes searched to the end, as the latest snapshot says. The session
            // calls its callbacks one at a time, so no lock guards these.
            std::size_t searched = 0;
            std::size_t total = 0;
            std::size_t lastSearched = 0;
            callbacks.progress = [&](const SearchProgress& progress) {
                const Clock::time_point now = Clock::now();
                if (progress.phase == lastPhase && searched == lastSearched && now - lastReport < kReportInterval)
                    return;
                lastReport = now;
                lastPhase = progress.phase;
                lastSearched = searched;
                report(progress, searched, total);
            };
            callbacks.changed = [&](std::shared_ptr<const SearchOutcome> results) {
                searched = results->meshesSearched();
                total = results->meshes.size();
                publish(std::move(results));
            };
            callbacks.bestSoFarInterval = 3 * kReportInterval;
            SearchSession session(std::move(folded), std::move(setup));
            std::shared_ptr<const SearchOutcome> outcome = session.run(callbacks);
            // The views open on the best plan: its breakdowns priced here, off the GUI
            // thread (the other plans' when first shown).
            if (const std::shared_ptr<const PlanCandidate> best = outcome->best())
                (void)best->breakdowns();
            return outcome;
        });
    }, [this, job](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // superseded by a newer search
        if (outcome.value) {
            emit resultsChanged(*outcome.value);
            emit finished(*outcome.value);
        } else if (outcome.error) {
            emit failed(ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error));
        } else {
            emit failed(tr("The search stopped with an unexpected error."), outcome.unexpected);
        }
    });
    running_.append(QFuture<void>(future));
    return job;
}

QString PlanSearchJob::message(const SearchOutcome& results)
{
    if (!results.finished)
        return {};
    if (results.cancelled)
        return tr("Search cancelled after %1; the best plans found so far are kept.")
            .arg(QuantityFormat::duration(results.seconds));
    if (!results.anyFits)
        return tr("No searched plan fits in the memory limit (%1).").arg(QString::fromStdString(results.detail));
    return tr("Search finished in %1.").arg(QuantityFormat::duration(results.seconds));
}

void PlanSearchJob::cancel()
{
    jobs_.cancel();
}

void PlanSearchJob::discard()
{
    jobs_.discard();
}

void PlanSearchJob::report(JobId job, const QString& phase, double fraction)
{
    if (jobs_.isCurrent(job))
        emit progressed(phase, fraction);
}

void PlanSearchJob::publish(JobId job, std::shared_ptr<const SearchOutcome> results)
{
    // Once cancelled, the final snapshot follows at once: showing the ones queued before
    // it would only delay it.
    if (jobs_.isCurrent(job) && !jobs_.isCancelling())
        emit resultsChanged(std::move(results));
}

}  // namespace tapestry
