#include "history/HistoryRecorder.h"

#include "common/ErrorText.h"
#include "fold/FoldedModel.h"
#include "model/LoadedModel.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"
#include "search/SearchRecords.h"
#include "search/SearchSetup.h"
#include "base/Error.h"
#include "history/HistoryPath.h"
#include "history/HistoryStore.h"
#include "history/RecordsOf.h"

#include <utility>

namespace tapestry {

HistoryRecorder::HistoryRecorder(QObject* parent) : QObject(parent) {}

HistoryRecorder::~HistoryRecorder() = default;

std::filesystem::path HistoryRecorder::path() const
{
    return store_ ? store_->file() : defaultHistoryPath();
}

HistoryStore* HistoryRecorder::store()
{
    if (store_)
        return store_.get();
    const std::filesystem::path file = defaultHistoryPath();
    if (file.empty()) {
        problem_ = tr("No history file: set HOME or TAPESTRY_HISTORY.");
        return nullptr;
    }
    try {
        std::filesystem::create_directories(file.parent_path());
        store_ = std::make_unique<HistoryStore>(file);
        problem_.clear();
    } catch (const std::exception& error) {
        report(error);
    }
    return store_.get();
}


void HistoryRecorder::beginSearch(const FoldedModel& folded, const SearchSetup& setup)
{
    endSearch(RunStatus::Cancelled, "superseded by another search");
    HistoryStore* history = store();
    if (!history)
        return;
    try {
        openRun_ = history->beginRun(modelRecordOf(folded.graph()), clusterRecordOf(setup.cluster),
                                     searchRunSettings(setup));
        emit recorded();
    } catch (const std::exception& error) {
        report(error);
    }
}

void HistoryRecorder::endSearch(RunStatus status, const std::string& message)
{
    const RunId run = std::exchange(openRun_, RunId());
    if (!run.isValid() || !store_)
        return;
    try {
        (void)store_->finishRun(run, status, message, {});
        emit recorded();
    } catch (const std::exception& error) {
        report(error);
    }
}

void HistoryRecorder::recordSearch(const FoldedModel& folded, const SearchSetup& setup, const SearchOutcome& results)
{
    HistoryStore* history = store();
    if (!history)
        return;
    try {
        const ModelRecord model = modelRecordOf(folded.graph());
        const ClusterRecord cluster = clusterRecordOf(setup.cluster);
        const RunId begun = std::exchange(openRun_, RunId());
        const RunId run = begun.isValid() ? begun : history->beginRun(model, cluster, searchRunSettings(setup));
        (void)history->markStalePlans({model.path, model.fingerprint, cluster.name, cluster.description});

        const std::vector<std::shared_ptr<const PlanCandidate>> kept = results.recordedCandidates();
        const std::vector<PlanRecord> plans = searchRecordsOf(folded, setup, results);
        const RunStatus status = results.cancelled ? RunStatus::Cancelled : RunStatus::Finished;
        const std::vector<PlanRecordId> ids = history->finishRun(run, status, results.detail, plans);
        for (std::size_t i = 0; i < ids.size() && i < kept.size(); ++i)
            records_[kept[i]] = ids[i];
        emit recorded();
    } catch (const std::exception& error) {
        report(error);
    }
}

PlanRecordId HistoryRecorder::recordPlan(const PlanPricing& pricing, const PlanCandidate& candidate,
                                         PlanRecordId parent)
{
    HistoryStore* history = store();
    if (!history)
        return {};
    try {
        PlanRecord record = planRecordOf(pricing.document(candidate), pricing.folded()->coarse, pricing.folded()->families);
        record.parent = parent;
        const PlanRecordId id = history->addPlan(modelRecordOf(pricing.folded()->graph()),
                                                 clusterRecordOf(pricing.setup().cluster), record);
        emit recorded();
        return id;
    } catch (const std::exception& error) {
        report(error);
        return {};
    }
}

PlanRecordId HistoryRecorder::recordOf(const std::shared_ptr<const PlanCandidate>& candidate) const
{
    const auto found = records_.find(candidate);
    return found == records_.end() ? PlanRecordId() : found->second;
}

void HistoryRecorder::remember(std::shared_ptr<const PlanCandidate> candidate, PlanRecordId record)
{
    if (candidate && record.isValid())
        records_[std::move(candidate)] = record;
}

void HistoryRecorder::report(const std::exception& error)
{
    const auto* coreError = dynamic_cast<const Error*>(&error);
    problem_ = coreError ? ErrorText::problem(*coreError) + u' ' + ErrorText::detail(*coreError)
                         : QString::fromLocal8Bit(error.what());
    problem_ = tr("Not recorded in the history (%1): %2")
                   .arg(QString::fromStdString(path().string()), problem_);
    emit failed(problem_);
}

}  // namespace tapestry
