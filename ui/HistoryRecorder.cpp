#include "HistoryRecorder.h"

#include "ErrorText.h"
#include "fold/FoldedModel.h"
#include "LoadedModel.h"
#include "PlanPricing.h"
#include "SearchResults.h"
#include "SearchSetup.h"
#include "base/Error.h"
#include "history/HistoryPath.h"
#include "history/HistoryStore.h"
#include "history/RecordsOf.h"

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


void HistoryRecorder::recordSearch(const FoldedModel& folded, const SearchSetup& setup, const SearchResults& results)
{
    HistoryStore* history = store();
    if (!history)
        return;
    try {
        const ModelRecord model = modelRecordOf(folded.graph());
        const ClusterRecord cluster = clusterRecordOf(setup.cluster);
        RunSettings settings;
        settings.command = "search";
        settings.mode = setup.options.mode == SearchMode::Tap ? "tap" : "whole-graph";
        settings.workload = setup.workload;
        for (const Pin& pin : setup.options.pins)
            settings.pins.push_back(pin.target);
        settings.memoryLimitBytes = setup.options.memoryLimitBytes;
        const RunId run = history->beginRun(model, cluster, settings);
        (void)history->markStalePlans({model.path, model.fingerprint, cluster.name, cluster.description});

        std::vector<PlanRecord> plans;
        std::vector<std::shared_ptr<const PlanCandidate>> kept;
        for (const std::shared_ptr<const PlanCandidate>& candidate : results.candidates) {
            if (candidate->role == PlanCandidate::Role::BestSoFar)
                continue;  // superseded by the final plans
            PlanDocument document;
            document.plan = candidate->plan;
            document.modelFingerprint = model.fingerprint;
            document.clusterName = setup.cluster.name;
            document.workload = setup.workload;
            document.cost = costSummaryOf(candidate->evaluation);
            plans.push_back(planRecordOf(document, folded.coarse, folded.families));
            kept.push_back(candidate);
        }
        const RunStatus status = results.cancelled ? RunStatus::Cancelled : RunStatus::Finished;
        const std::vector<PlanRecordId> ids =
            history->finishRun(run, status, results.message.toStdString(), plans);
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
