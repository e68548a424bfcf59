#include "plans/PlanEditPanel.h"
#include "plans/StrategyText.h"

#include "common/ErrorText.h"
#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "plans/PlanEditor.h"
#include "plans/PlanSummary.h"
#include "plans/PlanThroughput.h"
#include "fold/FoldedModel.h"
#include "search/PlanPricing.h"
#include "search/SearchOutcome.h"
#include "search/StrategyChoices.h"
#include "plans/StageBoundaryEditor.h"
#include "plans/StrategyChoicesModel.h"
#include "fold/CoarseGraph.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tapestry {

PlanEditPanel::PlanEditPanel(PlanEditor* editor, QWidget* parent) : QWidget(parent), editor_(editor)
{
    setObjectName(QStringLiteral("planEditPanel"));
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("editTitle"));
    title_->setWordWrap(true);

    expert_ = new QComboBox(this);
    expert_->setObjectName(QStringLiteral("editExpert"));
    expert_->addItem(tr("Megatron-LM"));
    expert_->addItem(tr("Megatron-LM with sequence parallelism"));
    expert_->addItem(tr("Hugging Face tp_plan file…"));
    expert_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    expert_->setMinimumContentsLength(16);
    start_ = new QPushButton(tr("Start Over From"), this);
    start_->setObjectName(QStringLiteral("editStart"));
    start_->setToolTip(tr("Replace the plan by an expert annotation, then override parts of it"));

    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("editTarget"));
    target_->setToolTip(tr("A position in a repeated block (# stands for every instance) or a node outside blocks"));
    target_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    target_->setMinimumContentsLength(20);

    model_ = new StrategyChoicesModel(this);
    table_ = new QTableView(this);
    table_->setToolTip(tr("Each strategy splits the node's tensors over the mesh axes (dp, tp, ...); the row says "
                          "the step time and memory the plan would have with it."));
    table_->setObjectName(QStringLiteral("editChoices"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(StrategyChoicesModel::StrategyColumn, QHeaderView::Stretch);
    table_->setAlternatingRowColors(true);

    apply_ = new QPushButton(tr("&Apply Strategy"), this);
    apply_->setObjectName(QStringLiteral("editApply"));
    // Short labels (the stack's own actions name the whole command); the tooltip says which.
    QUndoStack* stack = editor_->undoStack();
    undo_ = new QPushButton(tr("Undo"), this);
    undo_->setObjectName(QStringLiteral("editUndo"));
    redo_ = new QPushButton(tr("Redo"), this);
    redo_->setObjectName(QStringLiteral("editRedo"));
    connect(undo_, &QPushButton::clicked, stack, &QUndoStack::undo);
    connect(redo_, &QPushButton::clicked, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::indexChanged, this, &PlanEditPanel::updateButtons);
    complete_ = new QPushButton(tr("Pin and &Complete the Rest"), this);
    complete_->setObjectName(QStringLiteral("editComplete"));
    complete_->setToolTip(tr("Search the other nodes again with the edited ones fixed"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setEnabled(false);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("editStatus"));
    status_->setWordWrap(true);

    auto* startRow = new QHBoxLayout;
    startRow->addWidget(start_);
    startRow->addWidget(expert_, 1);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(new QLabel(tr("Node:"), this));
    targetRow->addWidget(target_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(apply_);
    buttons->addWidget(undo_);
    buttons->addWidget(redo_);
    buttons->addStretch(1);
    auto* completion = new QHBoxLayout;
    completion->addWidget(complete_);
    completion->addWidget(cancel_);
    completion->addWidget(status_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addLayout(startRow);
    layout->addLayout(targetRow);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    layout->addLayout(completion);
    boundaries_ = new StageBoundaryEditor(editor_, this);
    layout->addWidget(boundaries_);

    connect(editor_, &PlanEditor::planChanged, this, &PlanEditPanel::onPlanChanged);
    connect(editor_, &PlanEditor::completionStarted, this, [this] {
        status_->setText(tr("Completing the plan around the pinned choices…"));
        updateButtons();
    });
    connect(editor_, &PlanEditor::completionFinished, this, [this](const QString& message) {
        status_->setText(message);
        updateButtons();
    });
    connect(target_, &QComboBox::currentIndexChanged, this, &PlanEditPanel::priceChoices);
    connect(table_, &QTableView::doubleClicked, this, &PlanEditPanel::applySelected);
    connect(apply_, &QPushButton::clicked, this, &PlanEditPanel::applySelected);
    connect(complete_, &QPushButton::clicked, editor_, &PlanEditor::completeRest);
    connect(cancel_, &QPushButton::clicked, editor_, &PlanEditor::cancelCompletion);
    connect(start_, &QPushButton::clicked, this, [this] {
        if (expert_->currentIndex() == 2)
            emit hfTpPlanStartRequested();
        else
            emit expertStartRequested(expert_->currentIndex() == 1);
    });
    onPlanChanged();
}

PlanEditPanel::~PlanEditPanel() = default;

bool PlanEditPanel::selectTarget(const QString& name)
{
    const int index = target_->findText(name);
    if (index < 0)
        return false;
    target_->setCurrentIndex(index);
    return true;
}

void PlanEditPanel::onPlanChanged()
{
    const std::shared_ptr<const PlanCandidate>& candidate = editor_->current().candidate;
    if (!candidate || !editor_->pricing()) {
        title_->setText(tr("Open a plan from the search results or the history, or start from an expert plan."));
        target_->clear();
        model_->setChoices(nullptr, {});
        status_->clear();  // nothing of the previous model's plan stays
        updateButtons();
        return;
    }
    const PlanPricing& pricing = *editor_->pricing();
    const Throughput throughput = throughputOf(pricing.costs(), pricing.folded()->coarse,
                                               pricing.setup().cluster.gpu.peakFlopsPerSecond, candidate->stepSeconds());
    QString title = tr("<b>%1</b> on %2: step %L3 ms (%4), memory %L5 GB per device%6")
                        .arg(QString::fromStdString(candidate->plan.name).toHtmlEscaped(),
                             QString::fromStdString(candidate->meshText))
                        .arg(candidate->stepSeconds() * 1e3, 0, 'f', 2)
                        .arg(PlanThroughput::text(throughput).toHtmlEscaped())
                        .arg(candidate->memoryBytes() / 1e9, 0, 'f', 2)
                        .arg(candidate->evaluation.fitsInMemory() ? QString() : tr(" (does not fit)"));
    if (PlanThroughput::abovePeak(throughput))
        title = QStringLiteral("<span style=\"color:#c62828\">⚠ %1</span>").arg(title);
    title_->setText(title + QStringLiteral("<br>") +
                    tr("%1; %2.")
                        .arg(PlanSummary::text(*candidate, pricing.folded()->coarse, pricing.setup().cluster),
                             PlanSummary::runsOnText(*candidate, *pricing.folded(), pricing.setup()))
                        .toHtmlEscaped());
    // Keep the target list while the model stays; a new plan re-prices the same target.
    const std::vector<EditTarget>& targets = editor_->targets();
    if (target_->count() != static_cast<int>(targets.size())) {
        const QSignalBlocker blocker(target_);
        target_->clear();
        for (const EditTarget& target : targets) {
            const QString kind = nodeKindName(target.kind);
            target_->addItem(QString::fromStdString(target.name), kind);
            target_->setItemData(target_->count() - 1,
                                 tr("%1, %n node(s)", nullptr, static_cast<int>(target.nodes.size())).arg(kind),
                                 Qt::ToolTipRole);
        }
    }
    priceChoices();
    updateButtons();
}

void PlanEditPanel::priceChoices()
{
    const std::shared_ptr<const PlanCandidate> candidate = editor_->current().candidate;
    const int index = target_->currentIndex();
    if (!candidate || index < 0 || index >= static_cast<int>(editor_->targets().size())) {
        model_->setChoices(nullptr, {});
        return;
    }
    const JobTracker::JobId job = jobs_.start().id;
    const EditTarget target = editor_->targets()[static_cast<std::size_t>(index)];
    status_->setText(tr("Pricing the strategies of %1…").arg(QString::fromStdString(target.name)));
    updateButtons();
    using Outcome = JobOutcome<std::shared_ptr<const StrategyChoices>>;
    runInBackground(this, [pricing = editor_->pricing(), candidate, target] {
        return Outcome::catching([&] {
            return std::make_shared<const StrategyChoices>(StrategyChoices::compute(*pricing, candidate->plan, target));
        });
    }, [this, job, mesh = candidate->plan.mesh, hbm = candidate->evaluation.hbmBytes,
        name = QString::fromStdString(target.name)](const Outcome& outcome) {
        if (!jobs_.finish(job))
            return;  // another target or plan was chosen meanwhile
        if (!outcome.value) {
            const QString why = outcome.error
                                    ? QString(ErrorText::problem(*outcome.error) + u' ' + ErrorText::detail(*outcome.error))
                                    : outcome.unexpected;
            status_->setText(tr("The strategies of %1 could not be priced: %2").arg(name, why));
            updateButtons();
            return;
        }
        model_->setChoices(*outcome.value, mesh, hbm);
        for (int row = 0; row < model_->rowCount(); ++row) {
            if (model_->choices()->choices[static_cast<std::size_t>(row)].current)
                table_->selectRow(row);
        }
        status_->setText(tr("%n strategy(ies) priced.", nullptr, model_->rowCount()));
        updateButtons();
        emit choicesPriced();
    });
}

void PlanEditPanel::applySelected()
{
    const std::shared_ptr<const StrategyChoices> choices = model_->choices();
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (!choices || rows.isEmpty() || isPricing())
        return;
    const StrategyChoices::Choice& choice = choices->choices.at(static_cast<std::size_t>(rows.front().row()));
    if (choice.current)
        return;
    editor_->setStrategy(choices->target, choice.strategy);
    status_->setText(tr("Set %1 to %2.")
                         .arg(QString::fromStdString(choices->target.name),
                              model_->index(rows.front().row(), StrategyChoicesModel::StrategyColumn).data().toString()));
}

void PlanEditPanel::updateButtons()
{
    const bool open = editor_->current().candidate != nullptr;
    apply_->setEnabled(open && !isPricing());
    complete_->setEnabled(open && !editor_->isCompleting());
    cancel_->setEnabled(editor_->isCompleting());
    QUndoStack* stack = editor_->undoStack();
    undo_->setEnabled(stack->canUndo());
    undo_->setToolTip(stack->canUndo() ? tr("Undo %1").arg(stack->undoText()) : QString());
    redo_->setEnabled(stack->canRedo());
    redo_->setToolTip(stack->canRedo() ? tr("Redo %1").arg(stack->redoText()) : QString());
}

}  // namespace tapestry
