#include "history/HistoryPanel.h"

#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "common/ErrorText.h"
#include "history/HistoryRecorder.h"
#include "history/HistoryTreeModel.h"
#include "base/Error.h"
#include "history/HistoryStore.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace tapestry {

HistoryPanel::HistoryPanel(HistoryRecorder* recorder, QWidget* parent) : QWidget(parent), recorder_(recorder)
{
    setObjectName(QStringLiteral("historyPanel"));
    model_ = new HistoryTreeModel(this);
    view_ = new QTreeView(this);
    view_->setObjectName(QStringLiteral("historyTree"));
    view_->setModel(model_);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // A run's name is long: sized in refresh(), its column leaves the step and memory
    // in view on a laptop's dock (the name is cut, whole in the tooltip).
    view_->header()->setSectionResizeMode(HistoryTreeModel::NameColumn, QHeaderView::Interactive);
    view_->header()->setStretchLastSection(false);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("historyStatus"));
    status_->setWordWrap(true);

    open_ = new QPushButton(tr("&Open"), this);
    compare_ = new QPushButton(tr("Co&mpare"), this);
    compare_->setToolTip(tr("Compare the two selected plans"));
    export_ = new QPushButton(tr("E&xport…"), this);
    tag_ = new QPushButton(tr("&Tag…"), this);
    delete_ = new QPushButton(tr("&Delete"), this);
    recost_ = new QPushButton(tr("&Re-cost"), this);
    recost_->setObjectName(QStringLiteral("historyRecost"));
    recost_->setToolTip(tr("Price a stale plan again for the model and cluster on screen (a new plan)"));
    auto* refresh = new QPushButton(tr("Refresh"), this);

    // Two rows keep the dock narrow enough to share the window's side with the editor.
    auto* buttons = new QGridLayout;
    int column = 0;
    for (QPushButton* button : {open_, compare_, export_, tag_, delete_, recost_, refresh}) {
        buttons->addWidget(button, column / 4, column % 4);
        ++column;
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view_, 1);
    layout->addLayout(buttons);
    layout->addWidget(status_);

    connect(recorder_, &HistoryRecorder::recorded, this, &HistoryPanel::refresh);
    connect(refresh, &QPushButton::clicked, this, &HistoryPanel::refresh);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPanel::updateButtons);
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const PlanRecord* plan = model_->planAt(index))
            emit openRequested(*plan);
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        const std::vector<PlanRecord> plans = selectedPlans();
        if (!plans.empty())
            emit openRequested(plans.front());
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        const std::vector<PlanRecord> plans = selectedPlans();
        if (plans.size() == 2)
            emit compareRequested(plans[0], plans[1]);
    });
    connect(export_, &QPushButton::clicked, this, [this] {
        const std::vector<PlanRecord> plans = selectedPlans();
        if (!plans.empty())
            emit exportRequested(plans.front());
    });
    connect(recost_, &QPushButton::clicked, this, [this] {
        const std::vector<PlanRecord> plans = selectedPlans();
        if (!plans.empty())
            emit recostRequested(plans.front());
    });
    connect(tag_, &QPushButton::clicked, this, &HistoryPanel::tagSelected);
    connect(delete_, &QPushButton::clicked, this, &HistoryPanel::deleteSelected);
    updateButtons();
}

std::vector<PlanRecord> HistoryPanel::selectedPlans() const
{
    std::vector<PlanRecord> plans;
    for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
        if (const PlanRecord* plan = model_->planAt(index))
            plans.push_back(*plan);
    }
    return plans;
}

void HistoryPanel::refresh()
{
    if (!recorder_->store()) {
        status_->setText(recorder_->problem());
        return;
    }
    const JobTracker::JobId job = jobs_.start().id;
    using Outcome = JobOutcome<std::shared_ptr<const HistorySnapshot>>;
    runInBackground(this, [file = recorder_->path()] {
        return Outcome::catching([&] { return std::make_shared<const HistorySnapshot>(HistorySnapshot::read(file)); });
    }, [this, job](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // a newer read is on its way
        if (!outcome.value) {
            const QString problem = outcome.error
                                        ? QString(ErrorText::problem(*outcome.error) + u' ' + ErrorText::detail(*outcome.error))
                                        : outcome.unexpected;
            status_->setText(tr("Could not read the history: %1").arg(problem));
        } else {
            const std::shared_ptr<const HistorySnapshot>& snapshot = *outcome.value;
            model_->setSnapshot(snapshot);
            view_->expandToDepth(0);
            view_->resizeColumnToContents(HistoryTreeModel::NameColumn);
            // At least "#12 tap/edit-1" wide, even while the dock was never shown.
            const int least = view_->fontMetrics().averageCharWidth() * 20;
            view_->setColumnWidth(HistoryTreeModel::NameColumn,
                                  std::min(view_->columnWidth(HistoryTreeModel::NameColumn),
                                           std::max(least, view_->width() * 2 / 5)));
            status_->setText(tr("History: %1").arg(QString::fromStdString(snapshot->file.string())));
        }
        updateButtons();
        emit refreshed();
    });
}

void HistoryPanel::tagSelected()
{
    const std::vector<PlanRecord> plans = selectedPlans();
    HistoryStore* store = recorder_->store();
    if (plans.empty() || !store)
        return;
    const QString tag = QInputDialog::getText(this, tr("Tag Plan"), tr("Tag for the selected plan(s):")).trimmed();
    if (tag.isEmpty())
        return;
    try {
        for (const PlanRecord& plan : plans)
            store->tagPlan(plan.id, tag.toStdString());
    } catch (const Error& error) {
        status_->setText(ErrorText::problem(error) + u' ' + ErrorText::detail(error));
    }
    refresh();
}

void HistoryPanel::deleteSelected()
{
    const std::vector<PlanRecord> plans = selectedPlans();
    HistoryStore* store = recorder_->store();
    if (plans.empty() || !store)
        return;
    for (const PlanRecord& plan : plans) {
        try {
            store->deletePlan(plan.id, false);
        } catch (const Error& error) {
            if (error.code() != ErrorCode::HistoryPlanInUse) {
                status_->setText(ErrorText::problem(error) + u' ' + ErrorText::detail(error));
                break;
            }
            // Others were derived from it: they would lose their parent.
            const auto answer = QMessageBox::question(
                this, tr("Delete Plan"),
                tr("Other plans were derived from plan #%1 (%2). Delete it anyway? They keep their "
                   "strategies but lose their parent.")
                    .arg(plan.id.value())
                    .arg(QString::fromStdString(plan.name)));
            if (answer != QMessageBox::Yes)
                continue;
            try {
                store->deletePlan(plan.id, true);
            } catch (const Error& forced) {
                status_->setText(ErrorText::problem(forced) + u' ' + ErrorText::detail(forced));
            }
        }
    }
    refresh();
}

void HistoryPanel::updateButtons()
{
    const std::vector<PlanRecord> plans = selectedPlans();
    open_->setEnabled(plans.size() == 1);
    compare_->setEnabled(plans.size() == 2);
    export_->setEnabled(plans.size() == 1);
    tag_->setEnabled(!plans.empty());
    delete_->setEnabled(!plans.empty());
    recost_->setEnabled(plans.size() == 1 && plans.front().stale);
}

}  // namespace tapestry
