// Pipelines in the GUI, on GPT-2 small cut to 8 blocks on one DGX-H100 (pp=4, tp=2,
// batch 8 at micro-batch 1: 8 micro-batches): the schedule timeline draws 4 rows of 8
// forward and 8 backward boxes, 1F1B's first stage runs p = 4 forwards before its first
// backward and the last stage alternates; GPipe runs every forward first; interleaved
// (v = 2) colours its boxes by 2 chunks; 64 micro-batches cut the steady state out but
// keep the first and last p; each stage's boxes of one micro-batch add up to its
// micro-batch time. The step breakdown shows the stages (not the blocks) with sends
// and bubble; the folded graph's blocks carry their stages' colours; moving a stage
// boundary in the plan editor re-costs the plan at once (chunk starts and step
// change, undo restores them).
#include "FoldedTestModel.h"
#include "ScratchGuiEnvironment.h"
#include "charts/BreakdownCharts.h"
#include "charts/PipelineTimeline.h"
#include "cluster/MeshText.h"
#include "graphview/GraphViewContent.h"
#include "history/HistoryRecorder.h"
#include "plan/ExpertPlans.h"
#include "plans/PlanEditor.h"
#include "plans/PlanOverlay.h"
#include "plans/StageBoundaryEditor.h"
#include "search/PlanPricing.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QHorizontalStackedBarSeries>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QLabel>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <map>
#include <set>

using namespace tapestry;
using namespace tapestry::test;

namespace {

using Kind = TimelineBox::Kind;

// The drawn boxes of one kind on one stage, left to right.
std::vector<QGraphicsRectItem*> drawn(const PipelineTimeline& timeline, Kind kind, int stage)
{
    std::vector<QGraphicsRectItem*> boxes;
    for (QGraphicsItem* item : timeline.scene()->items()) {
        auto* rect = dynamic_cast<QGraphicsRectItem*>(item);
        if (rect && rect->data(PipelineTimeline::KindKey).toInt() == static_cast<int>(kind) &&
            rect->data(PipelineTimeline::StageKey).toInt() == stage)
            boxes.push_back(rect);
    }
    std::sort(boxes.begin(), boxes.end(), [](auto* a, auto* b) { return a->rect().left() < b->rect().left(); });
    return boxes;
}

int rows(const PipelineTimeline& timeline)
{
    int count = 0;
    for (QGraphicsItem* item : timeline.scene()->items())
        count += item->data(PipelineTimeline::KindKey).toInt() == PipelineTimeline::kRowItem ? 1 : 0;
    return count;
}

}  // namespace

class PipelineTimelineTest : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const PlanPricing> pricing_;

    // GPT-2 small, 8 blocks, on pp=4,dp=1,tp=2 at micro-batch 1 and `batch` sequences.
    std::shared_ptr<const PlanCandidate> price(PipelineSchedule schedule, int virtualStages, int batch = 8)
    {
        SearchSetup setup;
        setup.cluster = testCluster("dgx-h100x1");
        setup.workload = workload(batch, 1024);
        setup.workload.microBatch = 1;
        pricing_ = std::make_shared<const PlanPricing>(folded_, setup, parseMeshText("pp=4,dp=1,tp=2"));
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, folded_->coarse, pricing_->mesh().axes());
        plan.pipeline.stages = 4;
        plan.pipeline.virtualStages = virtualStages;
        plan.pipeline.schedule = schedule;
        return pricing_->price(std::move(plan));
    }

private slots:
    void initTestCase()
    {
        useScratchGuiEnvironment(QStringLiteral("PipelineTimelineTest"));
        folded_ = std::make_shared<const FoldedModel>(foldSynthPreset("gpt2-small", 8));
    }

    void oneFOneBHasFourRowsOfEightMicroBatches()
    {
        const auto candidate = price(PipelineSchedule::OneFOneB, 1);
        QCOMPARE(candidate->evaluation.microBatches, 8);
        PipelineTimeline timeline;
        timeline.resize(1200, 400);
        timeline.show();
        timeline.setPlan(candidate);
        QVERIFY(timeline.hasPipeline());
        QVERIFY(timeline.timeline().complete);
        QVERIFY(timeline.gaps().empty());
        QCOMPARE(rows(timeline), 4);
        for (int s = 0; s < 4; ++s) {
            QCOMPARE(drawn(timeline, Kind::Forward, s).size(), std::size_t{8});
            QCOMPARE(drawn(timeline, Kind::Backward, s).size(), std::size_t{8});
            QCOMPARE(drawn(timeline, Kind::Optimizer, s).size(), std::size_t{1});
            // Stage s runs p - s forwards (its warm-up and the first steady one) before its first backward.
            const double firstBackward = drawn(timeline, Kind::Backward, s).front()->rect().left();
            const auto forwards = drawn(timeline, Kind::Forward, s);
            const auto before = std::count_if(forwards.begin(), forwards.end(),
                                              [&](auto* f) { return f->rect().right() <= firstBackward + 1e-6; });
            QCOMPARE(before, 4 - s);
            // The first backward waits for the gradient from the later stages.
            QVERIFY(firstBackward >= forwards[3 - s]->rect().right());
        }
        // The last stage sends nothing forward, the first nothing backward: stage 1 sends
        // 8 activations, stages 2 and 3 send 8 activations and 8 gradients each, stage 4 8 gradients.
        QCOMPARE(drawn(timeline, Kind::Send, 0).size(), std::size_t{8});
        QCOMPARE(drawn(timeline, Kind::Send, 1).size(), std::size_t{16});
        QCOMPARE(drawn(timeline, Kind::Send, 3).size(), std::size_t{8});

        // One micro-batch's forward, backward and sends on a stage take its micro-batch time.
        const ScheduleTimeline& laid = timeline.timeline();
        for (int s = 0; s < 4; ++s) {
            double busy = 0;
            for (const TimelineBox* box : laid.stageBoxes(s)) {
                if (box->microBatch == 3)
                    busy += box->end - box->start;
            }
            QVERIFY(qAbs(busy - candidate->evaluation.stages[s].microBatchSeconds) < 1e-12);
            QVERIFY(qAbs(laid.backwardSeconds[s] - 2 * laid.forwardSeconds[s] -
                         candidate->evaluation.stages[s].cost.time.recomputeSeconds / 8) < 1e-12);
        }
        // The head makes stage 4 the slowest: it starts after the first micro-batch's
        // forwards and sends on stages 1-3, then runs its 8 micro-batches and its per-step
        // part. The cost model's step, 8 x the slowest micro-batch + each other stage's
        // micro-batch once (the fill and the drain) + the slowest per-step part, is the
        // layout's own to rounding (before, (m + p - 1) x the slowest only bounded it).
        const TimeBreakdown& head = candidate->evaluation.stages[3].cost.time;
        double lower = 8 * candidate->evaluation.stages[3].microBatchSeconds + head.optimizerSeconds +
                       head.dataParallelSeconds - head.hiddenSeconds;
        for (int s = 0; s < 3; ++s)
            lower += laid.forwardSeconds[s] + laid.sendSeconds[s];
        QVERIFY(laid.seconds >= lower * (1 - 1e-9));
        QVERIFY2(qAbs(laid.seconds - laid.modelSeconds) <= 1e-9 * laid.modelSeconds,
                 qPrintable(QStringLiteral("laid out %1 s, priced %2 s").arg(laid.seconds).arg(laid.modelSeconds)));

        QTemporaryDir dir;
        QVERIFY(timeline.savePicture(dir.filePath(QStringLiteral("timeline.svg"))));
        QVERIFY(timeline.savePicture(dir.filePath(QStringLiteral("timeline.png"))));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("timeline.png"))).size() > 1000);
    }

    // A plan set while the timeline's tab is hidden fits the view's width once the tab shows.
    void fitsWhenItsTabShows()
    {
        QTabWidget tabs;
        tabs.addTab(new QWidget, QStringLiteral("costs"));
        auto* timeline = new PipelineTimeline;
        tabs.addTab(timeline, QStringLiteral("schedule"));
        tabs.resize(1000, 400);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        timeline->setPlan(price(PipelineSchedule::OneFOneB, 1));
        tabs.setCurrentIndex(1);
        QTest::qWait(50);
        const int width = timeline->view()->viewport()->width();
        const double right = drawn(*timeline, Kind::Optimizer, 0).front()->rect().right();
        QVERIFY2(right <= width && right > 0.8 * width, qPrintable(QStringLiteral("%1 of %2").arg(right).arg(width)));
    }

    void gpipeRunsEveryForwardFirst()
    {
        PipelineTimeline timeline;
        timeline.resize(1200, 400);
        timeline.setPlan(price(PipelineSchedule::GPipe, 1));
        for (int s = 0; s < 4; ++s) {
            QVERIFY(drawn(timeline, Kind::Forward, s).back()->rect().right() <=
                    drawn(timeline, Kind::Backward, s).front()->rect().left() + 1e-6);
        }
    }

    void interleavedColoursTwoChunks()
    {
        const auto candidate = price(PipelineSchedule::Interleaved, 2);
        QCOMPARE(candidate->evaluation.stages.front().blockRanges.size(), std::size_t{2});
        PipelineTimeline timeline;
        timeline.resize(1200, 400);
        timeline.setPlan(candidate);
        QVERIFY(timeline.timeline().complete);
        for (int s = 0; s < 4; ++s) {
            const auto forwards = drawn(timeline, Kind::Forward, s);
            QCOMPARE(forwards.size(), std::size_t{16});  // 8 micro-batches x 2 chunks
            std::set<QRgb> colours;
            std::map<int, int> perChunk;
            for (QGraphicsRectItem* box : forwards) {
                colours.insert(box->brush().color().rgb());
                ++perChunk[box->data(PipelineTimeline::ChunkKey).toInt()];
            }
            QCOMPARE(colours.size(), std::size_t{2});
            QCOMPARE(perChunk, (std::map<int, int>{{0, 8}, {1, 8}}));
        }
        // Megatron's order: stage 1 starts micro-batches 1-4 on chunk 1, then the same on chunk 2.
        const auto first = drawn(timeline, Kind::Forward, 0);
        for (int k = 0; k < 8; ++k) {
            QCOMPARE(first[k]->data(PipelineTimeline::ChunkKey).toInt(), k / 4);
            QCOMPARE(first[k]->data(PipelineTimeline::MicroBatchKey).toInt(), k % 4);
        }

        // 6 micro-batches are not groups of p = 4 (Megatron-LM refuses them): the last
        // group of 2 goes through the chunks the same way, and every op still runs.
        timeline.setPlan(price(PipelineSchedule::Interleaved, 2, 6));
        QVERIFY(timeline.timeline().complete);
        for (int s = 0; s < 4; ++s) {
            QCOMPARE(drawn(timeline, Kind::Forward, s).size(), std::size_t{12});
            QCOMPARE(drawn(timeline, Kind::Backward, s).size(), std::size_t{12});
        }
    }

    // Every schedule lays out every micro-batch count, also fewer than the stages, and
    // every stage runs m x v forwards and as many backwards.
    void everyScheduleCompletes()
    {
        const std::pair<PipelineSchedule, int> schedules[] = {{PipelineSchedule::GPipe, 1},
                                                              {PipelineSchedule::OneFOneB, 1},
                                                              {PipelineSchedule::Interleaved, 1},
                                                              {PipelineSchedule::Interleaved, 2}};
        for (const auto& [schedule, v] : schedules) {
            for (const int m : {1, 2, 3, 5, 9}) {
                const auto candidate = price(schedule, v, m);
                const ScheduleTimeline laid = scheduleTimeline(candidate->plan.pipeline, candidate->evaluation);
                QVERIFY2(laid.complete, qPrintable(QStringLiteral("%1 x %2, m = %3")
                                                       .arg(QLatin1String(pipelineScheduleName(schedule)))
                                                       .arg(v)
                                                       .arg(m)));
                for (int s = 0; s < 4; ++s) {
                    const auto boxes = laid.stageBoxes(s);
                    QCOMPARE(std::count_if(boxes.begin(), boxes.end(), [](auto* b) { return b->kind == Kind::Forward; }), m * v);
                    QCOMPARE(std::count_if(boxes.begin(), boxes.end(), [](auto* b) { return b->kind == Kind::Backward; }), m * v);
                }
            }
        }
    }

    // 64 micro-batches: the steady state is cut out (one labelled gap), the first and
    // last 4 micro-batches stay whole on every stage; zooming in widens the boxes.
    void manyMicroBatchesElideTheSteadyState()
    {
        const auto candidate = price(PipelineSchedule::OneFOneB, 1, 64);
        QCOMPARE(candidate->evaluation.microBatches, 64);
        PipelineTimeline timeline;
        timeline.resize(1200, 400);
        timeline.show();
        timeline.setPlan(candidate);
        QCOMPARE(timeline.gaps().size(), std::size_t{1});
        int gapItems = 0;
        for (QGraphicsItem* item : timeline.scene()->items())
            gapItems += item->data(PipelineTimeline::KindKey).toInt() == PipelineTimeline::kGapItem ? 1 : 0;
        QCOMPARE(gapItems, 1);
        for (int s = 0; s < 4; ++s) {
            std::set<int> shown;
            for (QGraphicsRectItem* box : drawn(timeline, Kind::Backward, s))
                shown.insert(box->data(PipelineTimeline::MicroBatchKey).toInt());
            QVERIFY(shown.size() < 64);
            for (const int kept : {0, 1, 2, 3, 60, 61, 62, 63})
                QVERIFY2(shown.count(kept) == 1, qPrintable(QStringLiteral("stage %1, micro-batch %2").arg(s).arg(kept)));
        }
        const double before = drawn(timeline, Kind::Forward, 0).front()->rect().width();
        const double scale = timeline.pixelsPerSecond();
        timeline.zoomBy(2);
        QVERIFY(qAbs(timeline.pixelsPerSecond() - 2 * scale) < 1e-9 * scale);
        QVERIFY(qAbs(drawn(timeline, Kind::Forward, 0).front()->rect().width() - 2 * before) < 1e-6);
    }

    void stepNumbersNameTheSlowdownBesideHiddenCommunication()
    {
        // GPT-2 small data parallel over 8 GPUs: its gradients reduce under the backward
        // pass, and the compute beside them runs 18.9 % slower (cost/Overlap.h), which the
        // exposed parts count: the numbers under the chart say so.
        SearchSetup setup;
        setup.cluster = testCluster("dgx-h100x1");
        setup.workload = workload(8, 1024);
        const auto pricing = std::make_shared<const PlanPricing>(folded_, setup, parseMeshText("dp=8"));
        const auto candidate =
            pricing->price(makeExpertPlan(ExpertPlanKind::DataParallel, folded_->coarse, pricing->mesh().axes()));
        QVERIFY(candidate->evaluation.total.time.hiddenSeconds > 0);
        BreakdownCharts charts;
        charts.setPlan(folded_, candidate);
        QVERIFY2(charts.timeParts()->text().contains(
                     QStringLiteral("Compute beside hidden communication runs 18.9 % slower")),
                 qPrintable(charts.timeParts()->text()));
    }

    void breakdownAndGraphShowStages()
    {
        const auto candidate = price(PipelineSchedule::OneFOneB, 1);
        BreakdownCharts charts;
        charts.setPlan(folded_, candidate);
        QStringList sets;
        double bubble = -1;
        for (QAbstractSeries* series : charts.timeChart()->chart()->series()) {
            if (auto* stacked = qobject_cast<QHorizontalStackedBarSeries*>(series)) {
                for (QBarSet* set : stacked->barSets()) {
                    sets << set->label();
                    if (set->label() == QStringLiteral("Bubble"))
                        bubble = set->at(set->count() - 1);  // the top bar: the whole step
                }
            }
        }
        QVERIFY(sets.contains(QStringLiteral("Pipeline sends")));
        QVERIFY(sets.contains(QStringLiteral("Bubble")));
        // Every part named whole in the legend above the chart (a chart's own legend cut
        // a pipeline's seven to "Comp…", "Optim…"), and no stage's name cut either.
        for (const QString& set : sets)
            QVERIFY2(charts.timeLegend()->text().contains(QString(set).replace(u' ', QStringLiteral("&nbsp;"))),
                     qPrintable(charts.timeLegend()->text()));
        QVERIFY(!charts.timeChart()->chart()->legend()->isVisible());
        QVERIFY(qAbs(bubble - candidate->evaluation.total.time.bubbleSeconds * 1e3) < 1e-9);
        // Nothing reduces over data parallelism here: nothing hides, and no slowdown is named.
        QCOMPARE(candidate->evaluation.total.time.hiddenSeconds, 0.0);
        QVERIFY(!charts.timeParts()->text().contains(QStringLiteral("slower")));
        auto* axis = qobject_cast<QBarCategoryAxis*>(charts.timeChart()->chart()->axes(Qt::Vertical).front());
        // The whole step and the 4 stages; no block rows (a block's instances run on every stage).
        QCOMPARE(axis->categories(), (QStringList{QStringLiteral("Stage 4"), QStringLiteral("Stage 3"),
                                                  QStringLiteral("Stage 2"), QStringLiteral("Stage 1"),
                                                  QStringLiteral("Whole step")}));
        QVERIFY(!axis->truncateLabels());

        // The embedding runs on stage 1, the head on stage 4; the 8 blocks' family on all four.
        const PlanOverlay overlay(folded_, candidate);
        QCOMPARE(overlay.stageLegend().size(), 4);
        const std::size_t last = folded_->coarse.nodes.size() - 1;
        QCOMPARE(overlay.stageColors({ViewNodeRef::Kind::Coarse, 0}), QList<QColor>{PlanOverlay::stageColor(0, 4)});
        QCOMPARE(overlay.stageColors({ViewNodeRef::Kind::Coarse, last}), QList<QColor>{PlanOverlay::stageColor(3, 4)});
        const Family& blocks = *std::find_if(folded_->families.families.begin(), folded_->families.families.end(),
                                             [](const Family& f) { return !f.parent.isValid(); });
        QCOMPARE(overlay.stageColors({ViewNodeRef::Kind::Family, blocks.id.index()}).size(), 4);
    }

    // The editor moves the boundary between stages 1 and 2 from block 2 to block 3 and
    // re-costs: the chunk starts and the step change; undo brings both back.
    void movingABoundaryRecosts()
    {
        const auto candidate = price(PipelineSchedule::OneFOneB, 1);
        HistoryRecorder recorder;
        PlanEditor editor(&recorder);
        StageBoundaryEditor boundaries(&editor);
        editor.open(pricing_, {candidate, {}});
        QVERIFY(!boundaries.isHidden());
        QCOMPARE(boundaries.boundaryBox()->count(), 3);
        QCOMPARE(boundaries.startBox()->value(), 2);
        QCOMPARE(boundaries.startBox()->minimum(), 1);
        QCOMPARE(boundaries.startBox()->maximum(), 3);
        boundaries.startBox()->setValue(3);
        const PlanCandidate& moved = *editor.current().candidate;
        QCOMPARE(moved.plan.pipeline.chunkStarts, (std::vector<std::size_t>{0, 3, 4, 6}));
        QCOMPARE(moved.evaluation.stages[0].blockRanges.front(), (std::pair<std::size_t, std::size_t>{0, 3}));
        QVERIFY(moved.stepSeconds() != candidate->stepSeconds());
        Plan direct = candidate->plan;
        direct.pipeline.chunkStarts = {0, 3, 4, 6};
        QCOMPARE(moved.stepSeconds(), pricing_->price(direct)->stepSeconds());
        QVERIFY(moved.evaluation.stages[0].microBatchSeconds > candidate->evaluation.stages[0].microBatchSeconds);
        editor.undoStack()->undo();
        QCOMPARE(editor.current().candidate, candidate);
        QCOMPARE(boundaries.startBox()->value(), 2);

        // A plan without a pipeline hides the editor.
        SearchSetup setup;
        setup.cluster = testCluster("dgx-h100x1");
        setup.workload = workload(8, 1024);
        auto flat = std::make_shared<const PlanPricing>(folded_, setup, parseMeshText("1x8"));
        editor.open(flat, {flat->price(makeExpertPlan(ExpertPlanKind::Megatron, folded_->coarse, flat->mesh().axes())), {}});
        QVERIFY(boundaries.isHidden());
    }
};

QTEST_MAIN(PipelineTimelineTest)
#include "PipelineTimelineTest.moc"
