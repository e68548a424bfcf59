#include "plans/StageBoundaryEditor.h"

#include "fold/FoldedModel.h"
#include "plans/PlanEditor.h"
#include "search/PlanCandidate.h"
#include "search/PlanPricing.h"
#include "base/Error.h"
#include "common/ErrorText.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace tapestry {

namespace {

struct Chunks {
    std::vector<std::size_t> starts;
    std::size_t blocks = 0;
};

// The chunk starts of the plan being edited; empty without a pipeline.
Chunks chunksOf(const PlanEditor& editor)
{
    const auto& candidate = editor.current().candidate;
    if (!candidate || !editor.pricing() || !candidate->plan.pipeline.active())
        return {};
    Chunks chunks;
    chunks.blocks = modelBlocks(editor.pricing()->folded()->families).size();
    chunks.starts = chunkStarts(candidate->plan.pipeline, chunks.blocks);
    return chunks;
}

}  // namespace

StageBoundaryEditor::StageBoundaryEditor(PlanEditor* editor, QWidget* parent) : QWidget(parent), editor_(editor)
{
    setObjectName(QStringLiteral("stageBoundaryEditor"));
    boundary_ = new QComboBox(this);
    boundary_->setObjectName(QStringLiteral("stageBoundary"));
    boundary_->setToolTip(tr("A boundary between two consecutive chunks of the pipeline"));
    start_ = new QSpinBox(this);
    start_->setObjectName(QStringLiteral("stageBoundaryStart"));
    start_->setKeyboardTracking(false);  // re-cost on Enter or an arrow, not on every digit
    start_->setToolTip(tr("The model's repeated blocks count from 0; the embedding runs with the first chunk, the "
                          "head with the last. The plan is re-costed at once."));
    sizes_ = new QLabel(this);
    // Two rows: the editor's dock is narrow on a laptop screen.
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Stage boundary:"), this), 0, 0);
    layout->addWidget(boundary_, 0, 1, 1, 2);
    layout->addWidget(new QLabel(tr("starts at block"), this), 1, 0);
    layout->addWidget(start_, 1, 1);
    layout->addWidget(sizes_, 1, 2);
    layout->setColumnStretch(2, 1);

    connect(editor_, &PlanEditor::planChanged, this, &StageBoundaryEditor::onPlanChanged);
    connect(boundary_, &QComboBox::currentIndexChanged, this, &StageBoundaryEditor::showBoundary);
    connect(start_, &QSpinBox::valueChanged, this, &StageBoundaryEditor::moveBoundary);
    onPlanChanged();
}

void StageBoundaryEditor::onPlanChanged()
{
    const Chunks chunks = chunksOf(*editor_);
    setVisible(!chunks.starts.empty());
    const QSignalBlocker blocker(boundary_);
    const int previous = boundary_->currentIndex();
    boundary_->clear();
    if (chunks.starts.empty())
        return;
    const int stages = editor_->current().candidate->plan.pipeline.stages;
    for (std::size_t c = 1; c < chunks.starts.size(); ++c) {
        const int before = static_cast<int>((c - 1) % stages) + 1;
        const int after = static_cast<int>(c % stages) + 1;
        boundary_->addItem(chunks.starts.size() > static_cast<std::size_t>(stages)
                               ? tr("Chunk %1 | %2 (stage %3 → %4)").arg(c).arg(c + 1).arg(before).arg(after)
                               : tr("Stage %1 | %2").arg(before).arg(after));
    }
    boundary_->setCurrentIndex(std::clamp(previous, 0, boundary_->count() - 1));
    showBoundary();
}

void StageBoundaryEditor::showBoundary()
{
    const Chunks chunks = chunksOf(*editor_);
    const int index = boundary_->currentIndex();
    if (chunks.starts.empty() || index < 0)
        return;
    const std::size_t c = static_cast<std::size_t>(index) + 1;
    const std::size_t end = c + 1 < chunks.starts.size() ? chunks.starts[c + 1] : chunks.blocks;
    const QSignalBlocker blocker(start_);
    // Each chunk keeps at least one block.
    start_->setRange(static_cast<int>(chunks.starts[c - 1] + 1), static_cast<int>(end - 1));
    start_->setValue(static_cast<int>(chunks.starts[c]));
    sizes_->setText(tr("(%1 | %2 blocks)").arg(chunks.starts[c] - chunks.starts[c - 1]).arg(end - chunks.starts[c]));
}

void StageBoundaryEditor::moveBoundary(int block)
{
    Chunks chunks = chunksOf(*editor_);
    const int index = boundary_->currentIndex();
    if (chunks.starts.empty() || index < 0)
        return;
    const std::size_t c = static_cast<std::size_t>(index) + 1;
    if (chunks.starts[c] == static_cast<std::size_t>(block))
        return;
    Plan plan = editor_->current().candidate->plan;
    chunks.starts[c] = static_cast<std::size_t>(block);
    plan.pipeline.chunkStarts = chunks.starts;
    plan.origin = PlanOrigin::Edit;
    try {
        editor_->replacePlan(std::move(plan), tr("Move %1 to block %2").arg(boundary_->currentText()).arg(block));
    } catch (const Error& error) {
        showBoundary();
        sizes_->setText(ErrorText::problem(error));
    }
}

}  // namespace tapestry
