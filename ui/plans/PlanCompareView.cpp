#include "plans/PlanCompareView.h"

#include "common/ErrorText.h"
#include "fold/FoldedModel.h"
#include "graphview/GraphLegend.h"
#include "graphview/GraphView.h"
#include "graphview/GraphViewContent.h"
#include "graphview/GraphViewPane.h"
#include "search/PlanComparison.h"
#include "plans/PlanDiffModel.h"
#include "plans/PlanOverlay.h"
#include "search/SearchOutcome.h"
#include "base/Error.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tapestry {

PlanCompareView::PlanCompareView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("planCompareView"));
    auto* graphs = new QSplitter(Qt::Horizontal, this);
    for (int side = 0; side < 2; ++side) {
        boxes_[side] = new QComboBox(this);
        boxes_[side]->setObjectName(side == 0 ? QStringLiteral("compareA") : QStringLiteral("compareB"));
        boxes_[side]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        boxes_[side]->setMinimumContentsLength(16);
        panes_[side] = new GraphViewPane(GraphViewKind::Folded, this);
        panes_[side]->setLegendShown(false);
        panes_[side]->setCompactBar();
        auto* column = new QWidget(this);
        auto* layout = new QVBoxLayout(column);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(side == 0 ? tr("Plan A:") : tr("Plan B:"), this));
        row->addWidget(boxes_[side], 1);
        layout->addLayout(row);
        layout->addWidget(panes_[side], 1);
        graphs->addWidget(column);
        connect(boxes_[side], &QComboBox::currentIndexChanged, this, &PlanCompareView::recompare);
        connect(panes_[side], &GraphViewPane::contentShown, this, [this, side] { highlight(side); });
    }

    model_ = new PlanDiffModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("compareTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The node's name ends in what it is and, for one edit of a repeated block, how many
    // instances changed ("…/mlp/down_proj/MatMul ×32", the whole name in its tooltip);
    // beside the drawings it keeps room to read that, the rest scrolls.
    table_->horizontalHeader()->setSectionResizeMode(PlanDiffModel::NodeColumn, QHeaderView::Interactive);
    table_->horizontalHeader()->resizeSection(PlanDiffModel::NodeColumn, fontMetrics().averageCharWidth() * 20);
    table_->setTextElideMode(Qt::ElideLeft);
    table_->setWordWrap(false);  // a wrapped name shows its first line, cut on the right
    totals_ = new QLabel(this);
    totals_->setObjectName(QStringLiteral("compareTotals"));
    totals_->setWordWrap(true);

    auto* legend = new GraphLegend(this);
    legend->setObjectName(QStringLiteral("compareLegend"));
    legend->setEntries(PlanOverlay::legend());

    // The one legend of both drawings runs under them, the totals and the table stand
    // beside them with the dock's whole height: on a laptop's 1366 px the table keeps
    // room for its columns, and the drawings give up only what their bars do not need.
    auto* drawings = new QWidget(this);
    auto* drawingsLayout = new QVBoxLayout(drawings);
    drawingsLayout->setContentsMargins(0, 0, 0, 0);
    drawingsLayout->addWidget(graphs, 1);
    drawingsLayout->addWidget(legend);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(totals_);
    sideLayout->addWidget(table_, 1);
    side->setMinimumWidth(fontMetrics().averageCharWidth() * 44);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(drawings);
    split->addWidget(side);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
}

void PlanCompareView::setChoices(std::shared_ptr<const LoadedModel> model, std::shared_ptr<const FoldedModel> folded,
                                 QList<Choice> choices)
{
    if (folded != folded_) {
        loaded_ = std::move(model);
        folded_ = std::move(folded);
        comparison_.reset();
        for (GraphViewPane* pane : panes_)
            pane->setModel(loaded_, folded_);
    }
    choices_ = std::move(choices);
    fillBoxes();
}

void PlanCompareView::compare(const Choice& a, const Choice& b)
{
    for (const Choice& choice : {a, b}) {
        const bool known = std::any_of(choices_.begin(), choices_.end(),
                                       [&](const Choice& c) { return c.candidate == choice.candidate; });
        if (!known)
            choices_.append(choice);
    }
    {
        const QSignalBlocker blockA(boxes_[0]);
        const QSignalBlocker blockB(boxes_[1]);
        fillBoxes();
        for (int i = 0; i < choices_.size(); ++i) {
            if (choices_[i].candidate == a.candidate)
                boxes_[0]->setCurrentIndex(i);
            if (choices_[i].candidate == b.candidate)
                boxes_[1]->setCurrentIndex(i);
        }
    }
    recompare();
}

void PlanCompareView::fillBoxes()
{
    for (int side = 0; side < 2; ++side) {
        const QSignalBlocker blocker(boxes_[side]);
        const int previous = boxes_[side]->currentIndex();
        boxes_[side]->clear();
        for (const Choice& choice : choices_)
            boxes_[side]->addItem(choice.label);
        // A new list keeps the choice in place when it can, else A takes the first, B the second.
        const int fallback = std::min<int>(side, static_cast<int>(choices_.size()) - 1);
        boxes_[side]->setCurrentIndex(previous >= 0 && previous < choices_.size() ? previous : fallback);
    }
    recompare();
}

void PlanCompareView::recompare()
{
    const int a = boxes_[0]->currentIndex();
    const int b = boxes_[1]->currentIndex();
    if (!folded_ || a < 0 || b < 0) {
        comparison_.reset();
        model_->setComparison(nullptr);
        totals_->setText(tr("Choose two plans of the model to compare."));
        for (GraphViewPane* pane : panes_)
            pane->setPlanOverlay(nullptr);
        return;
    }
    try {
        comparison_ = PlanComparison::make(*folded_, choices_[a].candidate, choices_[b].candidate);
    } catch (const Error& error) {
        comparison_.reset();
        model_->setComparison(nullptr);
        totals_->setText(tr("These plans cannot be compared: %1 %2")
                             .arg(ErrorText::problem(error), ErrorText::detail(error)));
        return;
    }
    changedNodes_.assign(folded_->coarse.nodes.size(), false);
    for (const NodeStrategyChange& change : comparison_->diff.changes)
        changedNodes_[change.node.index()] = true;
    model_->setComparison(comparison_);

    const PlanCostDelta delta = comparison_->diff.costDelta.value_or(PlanCostDelta{});
    auto signedText = [](double value, int decimals) -> QString {
        return (value > 0 ? QStringLiteral("+") : QString()) + QStringLiteral("%L1").arg(value, 0, 'f', decimals);
    };
    totals_->setText(tr("B − A: step %1 ms (compute %2 ms, communication %3 ms), memory %4 GB per device; "
                        "%n node(s) differ%5.",
                        nullptr, static_cast<int>(comparison_->diff.changes.size()))
                         .arg(signedText(delta.stepSeconds * 1e3, 2), signedText(delta.computeSeconds * 1e3, 2),
                              signedText(delta.communicationSeconds * 1e3, 2), signedText(delta.memoryBytes / 1e9, 2),
                              comparison_->diff.meshDiffers ? tr(" (the meshes differ)") : QString()));
    panes_[0]->setPlanOverlay(std::make_shared<PlanOverlay>(folded_, comparison_->a));
    panes_[1]->setPlanOverlay(std::make_shared<PlanOverlay>(folded_, comparison_->b));
    for (int side = 0; side < 2; ++side) {
        panes_[side]->activate();
        highlight(side);
    }
}

void PlanCompareView::highlight(int side)
{
    if (!comparison_ || !folded_)
        return;
    highlighted_[side] = panes_[side]->view()->highlightWhere([this](const ViewNodeRef& ref) -> bool {
        if (ref.kind == ViewNodeRef::Kind::Coarse)
            return changedNodes_.at(ref.index);
        if (ref.kind != ViewNodeRef::Kind::Family)
            return false;
        for (const BlockInstance& instance : folded_->families.family(FamilyId{ref.index}).instances) {
            for (const CoarseNodeId node : instance.nodes) {
                if (changedNodes_.at(node.index()))
                    return true;
            }
        }
        return false;
    });
}

}  // namespace tapestry
