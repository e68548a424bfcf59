#include "plans/PlanEditor.h"

#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "common/ErrorText.h"
#include "fold/FoldedModel.h"
#include "history/HistoryRecorder.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"
#include "search/StrategyChoices.h"
#include "base/Error.h"
#include "search/PlanSearch.h"

#include <QUndoCommand>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace tapestry {

namespace {

// Moves the editor between two priced versions; nothing is priced or recorded here.
class PlanVersionCommand : public QUndoCommand {
public:
    PlanVersionCommand(PlanEditor* editor, PlanVersion before, PlanVersion after, const QString& text)
        : QUndoCommand(text), editor_(editor), before_(std::move(before)), after_(std::move(after))
    {
    }
    void undo() override { editor_->show(before_); }
    void redo() override { editor_->show(after_); }

private:
    PlanEditor* editor_;
    PlanVersion before_;
    PlanVersion after_;
};

// The root of a plan's name before any "/edit-N" the editor added.
std::string baseName(const std::string& name)
{
    const std::size_t edit = name.rfind("/edit-");
    return edit == std::string::npos ? name : name.substr(0, edit);
}

}  // namespace

PlanEditor::PlanEditor(HistoryRecorder* recorder, QObject* parent)
    : QObject(parent), recorder_(recorder), undo_(new QUndoStack(this))
{
}

PlanEditor::~PlanEditor()
{
    cancelCompletion();
    for (QFuture<void>& future : running_)
        future.waitForFinished();
}

void PlanEditor::open(std::shared_ptr<const PlanPricing> pricing, PlanVersion version)
{
    cancelCompletion();
    jobs_.discard();  // a running completion belongs to the previous plan: dropped
    undo_->clear();
    edits_ = 0;
    pricing_ = std::move(pricing);
    targets_ = pricing_ ? editTargets(pricing_->folded()->coarse, pricing_->folded()->families)
                        : std::vector<EditTarget>{};
    current_ = pricing_ ? std::move(version) : PlanVersion{};
    emit planChanged();
}

void PlanEditor::show(const PlanVersion& version)
{
    current_ = version;
    emit planChanged();
}

void PlanEditor::setStrategy(const EditTarget& target, const NodeStrategy& strategy)
{
    if (!current_.candidate)
        return;
    Plan plan = withStrategy(current_.candidate->plan, target, strategy);
    plan.origin = PlanOrigin::Edit;
    if (std::find(plan.pins.begin(), plan.pins.end(), target.name) == plan.pins.end())
        plan.pins.push_back(target.name);
    pushVersion(std::move(plan), tr("Set %1").arg(QString::fromStdString(target.name)));
}

void PlanEditor::replacePlan(Plan plan, const QString& actionText)
{
    if (!pricing_)
        return;
    pushVersion(std::move(plan), actionText);
}

void PlanEditor::pushVersion(Plan plan, const QString& actionText)
{
    const PlanVersion before = current_;
    if (before.candidate && plan.origin == PlanOrigin::Edit) {
        plan.parent = before.candidate->plan.name;
        plan.name = baseName(before.candidate->plan.name) + "/edit-" + std::to_string(++edits_);
    } else if (before.candidate) {
        plan.parent = before.candidate->plan.name;
    }
    PlanVersion after;
    // The workload stays the one the plan was opened with, and so do the implementations it names.
    after.candidate = pricing_->price(std::move(plan), PlanCandidate::Role::Opened,
                                      before.candidate ? before.candidate->implementations : TrainingStack::Any);
    after.record = recorder_->recordPlan(*pricing_, *after.candidate, before.record);
    undo_->push(new PlanVersionCommand(this, before, std::move(after), actionText));
}

void PlanEditor::completeRest()
{
    if (!current_.candidate || isCompleting())
        return;
    const Plan& plan = current_.candidate->plan;
    SearchOptions options = pricing_->setup().options;
    options.pins.clear();
    for (const std::string& name : plan.pins) {
        const auto target = std::find_if(targets_.begin(), targets_.end(),
                                         [&](const EditTarget& t) { return t.name == name; });
        if (target != targets_.end())
            options.pins.push_back({name, plan.strategy(target->nodes.front())});
    }
    const JobTracker::Ticket ticket = jobs_.start();
    const JobTracker::JobId job = ticket.id;
    const std::shared_ptr<std::atomic_bool> cancelled = ticket.cancelled;
    using Outcome = JobOutcome<SearchResult>;
    QFuture<Outcome> future = runInBackground(this, [pricing = pricing_, options, cancelled] {
        return Outcome::catching([&] {
            SearchCallbacks callbacks;
            callbacks.cancelled = [cancelled] { return cancelled->load(); };
            const FoldedModel& folded = *pricing->folded();
            return searchPlan(pricing->costs(), folded.coarse, folded.families, options, callbacks);
        });
    }, [this, job, pins = plan.pins](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // superseded, or another plan was opened
        if (!outcome.value) {
            const QString problem = outcome.error
                                        ? ErrorText::problem(*outcome.error) + u' ' + ErrorText::detail(*outcome.error)
                                        : outcome.unexpected;
            emit completionFinished(tr("The completion failed: %1").arg(problem));
            return;
        }
        const SearchResult& result = *outcome.value;
        if (!result.best) {
            emit completionFinished(tr("No plan completes the pinned choices: %1")
                                        .arg(QString::fromStdString(result.message)));
            return;
        }
        Plan completed = result.best->plan;
        completed.origin = PlanOrigin::Search;
        completed.name = baseName(current_.candidate->plan.name) + "/completed";
        completed.pins = pins;
        pushVersion(std::move(completed), tr("Complete the rest"));
        emit completionFinished(result.cancelled ? tr("Completion cancelled; the best plan found so far is shown.")
                                                 : tr("Completed the plan around %n pinned choice(s).", nullptr,
                                                      static_cast<int>(pins.size())));
    });
    running_.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    running_.append(QFuture<void>(future));
    emit completionStarted();
}

void PlanEditor::cancelCompletion()
{
    jobs_.cancel();
}

}  // namespace tapestry
