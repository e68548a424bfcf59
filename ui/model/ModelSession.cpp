#include "model/ModelSession.h"

#include "common/ErrorText.h"
#include "fold/FoldedModel.h"
#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "model/LoadedModel.h"
#include "search/PlanSearchJob.h"
#include "search/SearchOutcome.h"

namespace tapestry {

ModelSession::ModelSession(QObject* parent) : QObject(parent), searchJob_(new PlanSearchJob(this))
{
    connect(searchJob_, &PlanSearchJob::progressed, this, &ModelSession::searchProgressed);
    connect(searchJob_, &PlanSearchJob::resultsChanged, this, &ModelSession::setResults);
    connect(searchJob_, &PlanSearchJob::finished, this, [this](std::shared_ptr<const SearchOutcome> results) {
        setResults(results);
        emit searchFinished(std::move(results));
    });
    connect(searchJob_, &PlanSearchJob::failed, this, &ModelSession::searchFailed);
}

ModelSession::~ModelSession() = default;

void ModelSession::setModel(std::shared_ptr<const LoadedModel> model)
{
    const JobTracker::JobId job = foldJobs_.start().id;
    // Results and plans belong to the previous model.
    searchJob_->discard();
    searchedSetup_.reset();
    setCurrentPlan(nullptr, nullptr);
    setResults(nullptr);
    model_ = std::move(model);
    folded_.reset();
    emit modelChanged(model_);
    if (!model_) {
        foldJobs_.finish(job);
        return;
    }
    using Outcome = JobOutcome<std::shared_ptr<const FoldedModel>>;
    runInBackground(this, [model = model_] {
        return Outcome::catching([&] { return std::make_shared<const FoldedModel>(foldModel(model->graph)); });
    }, [this, job](const Outcome& outcome) {
        if (!foldJobs_.finish(job))
            return;  // a newer model replaced this one
        if (outcome.value) {
            folded_ = *outcome.value;
            emit foldFinished(folded_);
        } else {
            emit foldFailed(outcome.error ? ErrorText::detail(*outcome.error) : outcome.unexpected);
        }
    });
}

bool ModelSession::startSearch(const SearchSetup& setup)
{
    if (!folded_)
        return false;
    searchedSetup_ = setup;
    setResults(nullptr);
    searchJob_->start(folded_, setup);
    emit searchStarted();
    return true;
}

void ModelSession::cancelSearch()
{
    searchJob_->cancel();
}

bool ModelSession::isSearching() const
{
    return searchJob_->isBusy();
}

void ModelSession::setResults(std::shared_ptr<const SearchOutcome> results)
{
    if (results == results_)
        return;
    results_ = std::move(results);
    emit resultsChanged(results_);
}

void ModelSession::setCurrentPlan(const std::shared_ptr<const FoldedModel>& pricedFor,
                                  std::shared_ptr<const PlanCandidate> candidate)
{
    if (candidate && (!pricedFor || pricedFor != folded_))
        return;
    if (candidate == currentPlan_)
        return;
    currentPlan_ = std::move(candidate);
    emit currentPlanChanged(currentPlan_);
}

}  // namespace tapestry
