#pragma once

#include "jobs/JobTracker.h"
#include "plan/EditTargets.h"
#include "history/HistoryIds.h"
#include "plan/Plan.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

class QUndoStack;

namespace tapestry {

class HistoryRecorder;
class PlanPricing;
struct PlanCandidate;

// One version of the plan being edited, priced, with its history record (invalid
// when it could not be recorded).
struct PlanVersion {
    std::shared_ptr<const PlanCandidate> candidate;
    PlanRecordId record;
};

// The plan being hand-edited. Every change (a strategy set on a target, an expert plan
// to start from, a completion under pins) is priced at once, recorded in the history as
// a new plan whose parent is the previous version, and pushed on the undo stack; undo
// and redo move between versions without recording anything again. "Complete the rest"
// searches in the background with the edited targets pinned (one job at a time, a new
// one supersedes the old; late results are dropped).
class PlanEditor : public QObject {
    Q_OBJECT

public:
    explicit PlanEditor(HistoryRecorder* recorder, QObject* parent = nullptr);
    ~PlanEditor() override;

    // Starts editing `candidate` (priced by `pricing`); clears the undo stack. Null
    // pricing closes the editor.
    void open(std::shared_ptr<const PlanPricing> pricing, PlanVersion version);
    [[nodiscard]] const std::shared_ptr<const PlanPricing>& pricing() const { return pricing_; }
    [[nodiscard]] const PlanVersion& current() const { return current_; }
    [[nodiscard]] const std::vector<EditTarget>& targets() const { return targets_; }
    [[nodiscard]] QUndoStack* undoStack() const { return undo_; }

    // Sets every node of `target` to `strategy` and pins the target.
    void setStrategy(const EditTarget& target, const NodeStrategy& strategy);
    // Replaces the whole plan (an expert plan, an imported one), keeping it undoable.
    void replacePlan(Plan plan, const QString& actionText);
    // Searches the rest of the plan with the pinned targets fixed, in the background.
    void completeRest();
    void cancelCompletion();
    [[nodiscard]] bool isCompleting() const { return jobs_.isBusy(); }

    // Shows `version` (the undo commands call this).
    void show(const PlanVersion& version);

signals:
    void planChanged();
    void completionStarted();
    // `message` is translated: how the completion ended.
    void completionFinished(const QString& message);

private:
    void pushVersion(Plan plan, const QString& actionText);

    HistoryRecorder* recorder_;
    std::shared_ptr<const PlanPricing> pricing_;
    std::vector<EditTarget> targets_;
    PlanVersion current_;
    QUndoStack* undo_ = nullptr;
    int edits_ = 0;
    JobTracker jobs_;
    QList<QFuture<void>> running_;  // waited for on destruction
};

}  // namespace tapestry
