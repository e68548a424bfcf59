#include "cli/BreakdownReport.h"

#include "base/JsonWriter.h"
#include "cluster/CollectiveKind.h"
#include "cluster/LinkClass.h"

#include <cstdio>

namespace tapestry::cli {

namespace {

constexpr const char* kCollectiveLabels[] = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all"};

void line(const char* label, double seconds, double stepSeconds, int indent)
{
    const double share = stepSeconds > 0 ? 100.0 * seconds / stepSeconds : 0.0;
    std::printf("%*s%-*s %12.3f ms %6.1f %%\n", indent, "", 26 - indent, label, seconds * 1e3, share);
}

void memoryLine(const char* label, double bytes, int indent)
{
    std::printf("%*s%-*s %12.2f GB\n", indent, "", 26 - indent, label, bytes / 1e9);
}

}  // namespace

void printBreakdown(const CostBreakdown& breakdown, const std::vector<std::string>& axisNames, double hbmBytes)
{
    const TimeBreakdown& t = breakdown.time;
    const double step = t.stepSeconds();
    std::printf("step time per device        %12.3f ms\n", step * 1e3);
    line("compute", t.computeSeconds, step, 2);
    if (t.recomputeSeconds > 0)
        line("recomputation", t.recomputeSeconds, step, 4);
    line("optimizer update", t.optimizerSeconds, step, 4);
    line("communication (exposed)", t.exposedCommunicationSeconds(), step, 2);
    if (t.hiddenSeconds > 0)
        line("hidden under compute", t.hiddenSeconds, step, 4);
    if (t.pipelineSendSeconds > 0 || t.bubbleSeconds > 0) {
        line("pipeline sends", t.pipelineSendSeconds, step, 2);
        line("pipeline bubble", t.bubbleSeconds, step, 2);
    }
    std::printf("  all communication, by kind, axis and link:\n");
    for (std::size_t k = 0; k < t.byCollective.size(); ++k) {
        if (t.byCollective[k] > 0)
            line(kCollectiveLabels[k], t.byCollective[k], step, 4);
    }
    for (std::size_t a = 0; a < t.byAxis.size() && a < axisNames.size(); ++a) {
        const std::string label = "axis " + axisNames[a];
        line(label.c_str(), t.byAxis[a], step, 4);
    }
    line("intra-node links", t.byLink[static_cast<std::size_t>(LinkClass::Intra)], step, 4);
    line("inter-node links", t.byLink[static_cast<std::size_t>(LinkClass::Inter)], step, 4);

    const MemoryBreakdown& m = breakdown.memory;
    std::printf("\nmemory per device           %12.2f GB of %.2f GB (%s)\n", m.total() / 1e9, hbmBytes / 1e9,
                m.total() <= hbmBytes ? "fits" : "DOES NOT FIT");
    memoryLine("parameters", m.parameters, 2);
    memoryLine("gradients", m.gradients, 2);
    memoryLine("optimizer states", m.optimizerStates, 2);
    memoryLine("saved activations", m.activations, 2);
    memoryLine("largest transient buffer", m.transient, 2);
}

void printStages(const PlanEvaluation& evaluation, const PipelineLayout& layout)
{
    if (evaluation.stages.empty())
        return;
    std::printf("\npipeline   %d stages x %d chunk(s), %s, %d micro-batches per step\n", layout.stages,
                layout.virtualStages, pipelineScheduleName(layout.schedule), evaluation.microBatches);
    std::printf("  stage  blocks              micro-batch ms   in flight   memory GB   bubble ms\n");
    for (std::size_t s = 0; s < evaluation.stages.size(); ++s) {
        const StageCost& stage = evaluation.stages[s];
        std::string blocks;
        for (const auto& [first, end] : stage.blockRanges)
            blocks += (blocks.empty() ? "" : " ") + std::to_string(first) + "-" + std::to_string(end - 1);
        std::printf("  %5zu  %-18s %15.3f %11.2f %11.2f %11.3f\n", s, blocks.c_str(), stage.microBatchSeconds * 1e3,
                    stage.inFlightMicroBatches, stage.cost.memory.total() / 1e9, stage.cost.time.bubbleSeconds * 1e3);
    }
}

void writeBreakdownJson(JsonWriter& json, const CostBreakdown& breakdown, const std::vector<std::string>& axisNames)
{
    const TimeBreakdown& t = breakdown.time;
    json.beginObject();
    json.key("step_seconds").value(t.stepSeconds());
    json.key("compute_seconds").value(t.computeSeconds);
    json.key("recompute_seconds").value(t.recomputeSeconds);
    json.key("optimizer_seconds").value(t.optimizerSeconds);
    json.key("communication_seconds").value(t.communicationSeconds());
    json.key("hidden_communication_seconds").value(t.hiddenSeconds);
    json.key("exposed_communication_seconds").value(t.exposedCommunicationSeconds());
    json.key("pipeline_send_seconds").value(t.pipelineSendSeconds);
    json.key("bubble_seconds").value(t.bubbleSeconds);
    json.key("by_collective").beginObject();
    for (const CollectiveKind kind : kAllCollectiveKinds)
        json.key(collectiveKindName(kind)).value(t.byCollective[static_cast<std::size_t>(kind)]);
    json.endObject();
    json.key("by_axis").beginObject();
    for (std::size_t a = 0; a < t.byAxis.size() && a < axisNames.size(); ++a)
        json.key(axisNames[a]).value(t.byAxis[a]);
    json.endObject();
    json.key("by_link").beginObject();
    json.key("intra").value(t.byLink[static_cast<std::size_t>(LinkClass::Intra)]);
    json.key("inter").value(t.byLink[static_cast<std::size_t>(LinkClass::Inter)]);
    json.endObject();
    const MemoryBreakdown& m = breakdown.memory;
    json.key("memory_bytes").beginObject();
    json.key("parameters").value(m.parameters);
    json.key("gradients").value(m.gradients);
    json.key("optimizer_states").value(m.optimizerStates);
    json.key("activations").value(m.activations);
    json.key("transient").value(m.transient);
    json.key("total").value(m.total());
    json.endObject();
    json.endObject();
}

}  // namespace tapestry::cli
