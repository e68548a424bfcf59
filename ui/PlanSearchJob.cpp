#include "PlanSearchJob.h"

#include "BackgroundTask.h"
#include "ErrorText.h"
#include "fold/FoldedModel.h"
#include "LoadedModel.h"
#include "SearchResults.h"
#include "base/Error.h"
#include "cost/CostModel.h"
#include "plan/ExpertPlans.h"

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <optional>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;
// Reports faster than this only make the GUI thread busy; the eye sees no difference.
constexpr auto kReportInterval = std::chrono::milliseconds(100);

struct Outcome {
    std::shared_ptr<const SearchResults> results;
    std::optional<Error> error;
    QString unexpected;  // an exception that is not a tapestry::Error
};

QString phaseText(const std::string& phase)
{
    if (phase == "grouping")
        return PlanSearchJob::tr("Grouping decisions");
    if (phase == "searching")
        return PlanSearchJob::tr("Searching");
    if (phase == "smallest peak")
        return PlanSearchJob::tr("Looking for the smallest peak memory");
    if (phase == "alternatives")
        return PlanSearchJob::tr("Finding alternatives that use less memory");
    if (phase == "done")
        return PlanSearchJob::tr("Done");
    if (phase == "expert plans")
        return PlanSearchJob::tr("Pricing the expert plans");
    return QString::fromStdString(phase);
}

// The synchronous work of one job. `report` and `publish` post to the GUI thread.
class SearchWorker {
public:
    using Report = std::function<void(const std::string& phase, double fraction)>;
    using Publish = std::function<void(std::shared_ptr<const SearchResults>)>;

    SearchWorker(std::shared_ptr<const FoldedModel> folded, SearchSetup setup,
                 std::shared_ptr<std::atomic_bool> cancelled, Report report, Publish publish)
        : folded_(std::move(folded)), setup_(std::move(setup)), cancelled_(std::move(cancelled)),
          report_(std::move(report)), publish_(std::move(publish))
    {
    }

    std::shared_ptr<const SearchResults> run()
    {
        const Clock::time_point start = Clock::now();
        const std::vector<std::vector<MeshAxis>> meshes = setup_.meshes();
        bool anyFits = false;
        std::string lastMessage;
        for (std::size_t m = 0; m < meshes.size() && !*cancelled_; ++m) {
            const double base = static_cast<double>(m) / static_cast<double>(meshes.size());
            const double share = 1.0 / static_cast<double>(meshes.size());
            const DeviceMesh mesh(meshes[m], setup_.cluster);
            const QString meshText = QString::fromStdString(mesh.toString());
            reportNow("expert plans", base);
            const CostModel costs(folded_->graph(), folded_->coarse, folded_->families, setup_.cluster, mesh,
                                  setup_.workload);
            hbmBytes_ = costs.hbmBytes();
            limitBytes_ = setup_.options.memoryLimitBytes.value_or(hbmBytes_);
            for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron,
                                              ExpertPlanKind::MegatronSequenceParallel}) {
                Plan plan = makeExpertPlan(kind, folded_->coarse, meshes[m]);
                add(PlanCandidate::Role::Expert, std::move(plan), costs, meshText);
            }
            publishNow({});

            SearchCallbacks callbacks;
            callbacks.cancelled = [this] { return cancelled_->load(); };
            callbacks.progress = [&](std::string_view phase, double fraction) {
                reportThrottled(std::string(phase), base + share * fraction);
            };
            Clock::time_point lastBest;
            callbacks.bestSoFar = [&](const Plan& plan, double) {
                // The first incumbent at once, later ones a few times a second: the final
                // result replaces them all anyway.
                const Clock::time_point now = Clock::now();
                if (now - lastBest < 3 * kReportInterval)
                    return;
                lastBest = now;
                auto candidate = std::make_shared<PlanCandidate>();
                candidate->role = PlanCandidate::Role::BestSoFar;
                candidate->plan = plan;
                candidate->evaluation = costs.evaluate(plan);
                candidate->meshText = meshText;
                publishNow(candidate);
            };
            const SearchResult result =
                searchPlan(costs, folded_->coarse, folded_->families, setup_.options, callbacks);
            if (result.best)
                add(PlanCandidate::Role::Best, result.best->plan, result.best->evaluation, meshText);
            for (const SearchCandidate& alternative : result.alternatives)
                add(PlanCandidate::Role::Alternative, alternative.plan, alternative.evaluation, meshText);
            anyFits = anyFits || result.fitsInMemory;
            if (!result.message.empty())
                lastMessage = result.message;
            cancelledAny_ = cancelledAny_ || result.cancelled;
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        auto results = snapshot({});
        results->finished = true;
        results->cancelled = cancelledAny_ || *cancelled_;
        if (results->cancelled)
            results->message = PlanSearchJob::tr("Search cancelled after %L1 s; the best plans found so far are kept.")
                                   .arg(seconds, 0, 'f', 1);
        else if (!anyFits)
            results->message = PlanSearchJob::tr("No searched plan fits in the memory limit (%1).")
                                   .arg(QString::fromStdString(lastMessage));
        else
            results->message = PlanSearchJob::tr("Search finished in %L1 s.").arg(seconds, 0, 'f', 1);
        return results;
    }

private:
    void add(PlanCandidate::Role role, Plan plan, const CostModel& costs, const QString& meshText)
    {
        const PlanEvaluation evaluation = costs.evaluate(plan);
        add(role, std::move(plan), evaluation, meshText);
    }

    void add(PlanCandidate::Role role, Plan plan, const PlanEvaluation& evaluation, const QString& meshText)
    {
        auto candidate = std::make_shared<PlanCandidate>();
        candidate->role = role;
        candidate->plan = std::move(plan);
        candidate->evaluation = evaluation;
        candidate->meshText = meshText;
        candidates_.push_back(std::move(candidate));
    }

    std::shared_ptr<SearchResults> snapshot(std::shared_ptr<const PlanCandidate> bestSoFar) const
    {
        auto results = std::make_shared<SearchResults>();
        results->candidates = candidates_;
        if (bestSoFar)
            results->candidates.push_back(std::move(bestSoFar));
        results->hbmBytes = hbmBytes_;
        results->memoryLimitBytes = limitBytes_;
        return results;
    }

    void publishNow(std::shared_ptr<const PlanCandidate> bestSoFar) { publish_(snapshot(std::move(bestSoFar))); }

    void reportNow(const std::string& phase, double fraction)
    {
        lastReport_ = Clock::now();
        lastPhase_ = phase;
        report_(phase, fraction);
    }

    void reportThrottled(const std::string& phase, double fraction)
    {
        if (phase == lastPhase_ && Clock::now() - lastReport_ < kReportInterval)
            return;
        reportNow(phase, fraction);
    }

    std::shared_ptr<const FoldedModel> folded_;
    SearchSetup setup_;
    std::shared_ptr<std::atomic_bool> cancelled_;
    Report report_;
    Publish publish_;
    std::vector<std::shared_ptr<const PlanCandidate>> candidates_;
    double hbmBytes_ = 0;
    double limitBytes_ = 0;
    bool cancelledAny_ = false;
    Clock::time_point lastReport_;
    std::string lastPhase_;
};

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
    cancel();
    running_.removeIf([](const QFuture<void>& future) { return future.isFinished(); });
    const JobId job = ++latestJob_;
    auto cancelled = std::make_shared<std::atomic_bool>(false);
    cancelFlag_ = cancelled;
    // The worker posts to this object; the destructor waits for it, so `this` outlives it.
    auto report = [this, job](const std::string& phase, double fraction) {
        QMetaObject::invokeMethod(this, [this, job, phase, fraction] { PlanSearchJob::report(job, phase, fraction); },
                                  Qt::QueuedConnection);
    };
    auto publish = [this, job](std::shared_ptr<const SearchResults> results) {
        QMetaObject::invokeMethod(this, [this, job, results] { PlanSearchJob::publish(job, results); },
                                  Qt::QueuedConnection);
    };
    QFuture<Outcome> future = runInBackground(this, [folded = std::move(folded), setup = std::move(setup), cancelled,
                                                     report, publish]() mutable -> Outcome {
        try {
            SearchWorker worker(std::move(folded), std::move(setup), cancelled, report, publish);
            return {worker.run(), std::nullopt, {}};
        } catch (const Error& error) {
            return {nullptr, error, {}};
        } catch (const std::exception& exception) {
            return {nullptr, std::nullopt, QString::fromLocal8Bit(exception.what())};
        }
    }, [this, job](const Outcome& outcome) {
        if (job != latestJob_)
            return;  // superseded by a newer search
        finishedJob_ = job;
        if (outcome.results) {
            emit resultsChanged(outcome.results);
            emit finished(outcome.results);
        } else if (outcome.error) {
            emit failed(ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error));
        } else {
            emit failed(tr("The search stopped with an unexpected error."), outcome.unexpected);
        }
    });
    running_.append(QFuture<void>(future));
    return job;
}

void PlanSearchJob::cancel()
{
    if (cancelFlag_)
        *cancelFlag_ = true;
}

void PlanSearchJob::discard()
{
    cancel();
    finishedJob_ = ++latestJob_;
}

void PlanSearchJob::report(JobId job, const std::string& phase, double fraction)
{
    if (job == latestJob_ && isBusy())
        emit progressed(phaseText(phase), fraction);
}

void PlanSearchJob::publish(JobId job, std::shared_ptr<const SearchResults> results)
{
    if (job == latestJob_ && isBusy())
        emit resultsChanged(std::move(results));
}

}  // namespace tapestry
