#pragma once

#include "jobs/JobTracker.h"
#include "search/SearchSetup.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace tapestry {

struct FoldedModel;
struct LoadedModel;
struct PlanCandidate;
class PlanSearchJob;
struct SearchOutcome;

// The model on screen and what the window knows of it, held once for every view: the
// imported model, its fold (run in the background when a model arrives), the latest
// search's results with the setup they were searched with, and the plan on screen.
// Views and docks subscribe to its signals instead of keeping copies. A new model
// drops the fold, the search (a running one is discarded), its results and the plan.
class ModelSession : public QObject {
    Q_OBJECT

public:
    explicit ModelSession(QObject* parent = nullptr);
    ~ModelSession() override;

    // Shows `model` and folds it in the background; null closes the model.
    void setModel(std::shared_ptr<const LoadedModel> model);
    [[nodiscard]] const std::shared_ptr<const LoadedModel>& model() const { return model_; }
    // The fold of model(); null while folding, when folding failed and without a model.
    [[nodiscard]] const std::shared_ptr<const FoldedModel>& folded() const { return folded_; }

    // Searches the folded model with `setup` in the background (one search at a time: a
    // new one supersedes the running one). False when there is no fold yet.
    bool startSearch(const SearchSetup& setup);
    // Asks the running search to stop; it finishes with the best plans found so far.
    void cancelSearch();
    [[nodiscard]] bool isSearching() const;
    // The latest search's results (snapshots while it runs) and its setup; null and
    // empty before the first search of this model.
    [[nodiscard]] const std::shared_ptr<const SearchOutcome>& results() const { return results_; }
    [[nodiscard]] const std::optional<SearchSetup>& searchedSetup() const { return searchedSetup_; }

    // The plan in the inspector and over the graph views, priced for folded(); null
    // clears it. A plan priced for another fold (a model no longer on screen) is ignored.
    void setCurrentPlan(const std::shared_ptr<const FoldedModel>& pricedFor,
                        std::shared_ptr<const PlanCandidate> candidate);
    [[nodiscard]] const std::shared_ptr<const PlanCandidate>& currentPlan() const { return currentPlan_; }

signals:
    // A new model (or none) is on screen; its fold is under way (folded() is null).
    void modelChanged(std::shared_ptr<const tapestry::LoadedModel> model);
    // The fold of the model on screen is ready.
    void foldFinished(std::shared_ptr<const tapestry::FoldedModel> folded);
    // `message` is translated.
    void foldFailed(const QString& message);

    void searchStarted();
    // `phase` is translated; `fraction` in [0, 1].
    void searchProgressed(const QString& phase, double fraction);
    // A snapshot while the search runs, then the final one; null when a new model or a
    // new search cleared them.
    void resultsChanged(std::shared_ptr<const tapestry::SearchOutcome> results);
    void searchFinished(std::shared_ptr<const tapestry::SearchOutcome> results);
    // `problem` and `detail` are translated text (see ErrorText).
    void searchFailed(const QString& problem, const QString& detail);

    void currentPlanChanged(std::shared_ptr<const tapestry::PlanCandidate> candidate);

private:
    void setResults(std::shared_ptr<const SearchOutcome> results);

    std::shared_ptr<const LoadedModel> model_;
    std::shared_ptr<const FoldedModel> folded_;
    JobTracker foldJobs_;
    PlanSearchJob* searchJob_ = nullptr;
    std::shared_ptr<const SearchOutcome> results_;
    std::optional<SearchSetup> searchedSetup_;
    std::shared_ptr<const PlanCandidate> currentPlan_;
};

}  // namespace tapestry
