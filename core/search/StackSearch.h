#pragma once

#include "search/PlanCandidate.h"
#include "search/PlanSearch.h"
#include "search/SearchSetup.h"
#include "search/SharedBindings.h"
#include "target/StagePlans.h"
#include "target/TrainingStackSettings.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tapestry {

struct FoldedModel;

// What the search for a training stack found on one mesh.
struct StackSearchOutcome {
    SearchResult result;  // best and Pareto alternatives, statistics (solves: plans priced)
    std::shared_ptr<const PlanCandidate> best;                       // null when nothing could be priced
    std::vector<std::shared_ptr<const PlanCandidate>> alternatives;  // less memory, more time
    Workload workload;    // the best plan's: techniques chosen, batch resolved
};

// What one stack layout priced to on one pipeline depth: the plans it keeps (none both
// as fast and as small as another: every best and Pareto point is among them) and how
// many plans it priced. Where its leanest plan fits, a plan whose memory floor is over
// the limit is not priced (CostModel::memoryFloorBytes): it cannot fit, so it is neither
// a best nor a Pareto point of any search that reads these prices. The kept plans hold
// their pipeline only: each is `plan` under that pipeline (searchStackMesh lays the plan
// into those it hands out; a plan copy reads every node, and most kept plans are not).
struct LayoutPrices {
    std::vector<std::shared_ptr<const PlanCandidate>> frontier;
    Plan plan;  // the layout as the stack builds it
    std::size_t priced = 0;
    int widestGroup = 0;  // GPUs of the layout's widest tensor, context or expert group
    bool cancelled = false;  // the search was cancelled before every plan was priced
};

// The layouts a search session has priced, shared by its meshes. A stack lays every
// layout out on its own stage mesh from the degrees alone (planFromTrainingStackSettings),
// so one layout on one pipeline depth prices the same on every mesh that offers it:
// `--mesh auto` offers most layouts on several meshes. Shared between threads.
class StackLayoutPrices {
public:
    // The prices of `layout` on `stages` pipeline stages; `price` prices it the first time.
    [[nodiscard]] std::shared_ptr<const LayoutPrices> of(int stages, const TrainingStackSettings& layout,
                                                         const std::function<LayoutPrices()>& price);

private:
    std::mutex lock_;
    std::map<std::string, std::shared_ptr<const LayoutPrices>> prices_;
};

// The search for a training stack (setup.options.stack other than Any) on `axes` (a
// "pp" axis first for a pipeline). A stack fixes each layer's layout, so its choices are
// the layout (stackLayouts: which axes are data, context and tensor parallel, sequence
// parallelism, the context-parallel variant, expert parallelism), the training
// techniques it has (stackZeroStages, stackRecomputations, unless the setup fixes them),
// the micro-batch (on a pipeline among setup.pipelineMicroBatches(); elsewhere the
// whole per-rank batch, and micro-batches of 1, 2, 4 and 8 sequences where that does not
// fit) and the pipeline schedule (pipelineLayoutVariants): every combination is built
// as the stack builds it (planFromTrainingStackSettings, on the stack's own stage mesh)
// and priced exactly; one the stack cannot run as is (stackInexpressible) is dropped.
// Each plan is therefore exactly what an export to the stack writes. The best by
// isPreferred; up to setup.options.alternatives Pareto points below its memory.
// Layouts using a technique in setup.options.withheld, with a group wider than
// setup.options.widestGroup, or whose stage mesh does not lie evenly on the cluster's
// NVLink domains are left out. Pins are refused (Error(InvalidArgument)): a stack lays
// out every layer itself. Layouts priced on another mesh of the session come from
// `layoutPrices`, shapes bound before from `bindings`, stage plans built before (on this
// mesh, for any stack: a layout's plan is the same on each) from `stagePlans`. Polls
// `cancelled` between pricings and reports `progress` in [0, 1].
[[nodiscard]] StackSearchOutcome searchStackMesh(const std::shared_ptr<const FoldedModel>& model,
                                                 const SearchSetup& setup, const std::vector<MeshAxis>& axes,
                                                 StackLayoutPrices& layoutPrices, SharedBindings& bindings,
                                                 StagePlans& stagePlans, const std::function<bool()>& cancelled,
                                                 const std::function<void(double)>& progress);

}  // namespace tapestry
