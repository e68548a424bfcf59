#pragma once

#include "cost/Workload.h"
#include "graph/TensorShape.h"

#include <cstdint>
#include <vector>

namespace tapestry {

class Graph;

// Turns activation shapes into concrete extents for a workload.
// The model's own batch B0 and sequence L0 come from its token input (the first
// integer graph input of rank >= 2: [batch, sequence]) or, for image models, the first
// input's leading dim. Symbolic dims bind by name: "...batch..." -> B, "...seq..." or
// "...length..." -> L; inference placeholders ("unk__3") and nameless dims bind to B
// on axis 0 and to 1 elsewhere. Exports with static shapes are re-bound only when the
// workload differs from the export: on axis 0 an extent equal to B0 becomes B and one
// equal to B0*L0 (flattened tokens) becomes B*L; on later axes an extent equal to L0
// becomes L, except on axis 1 of a rank-4 tensor whose axis 2 is L0 too ([batch,
// heads, sequence, ...] of a model with as many heads as the export had tokens).
// Apply it to activations only, never to weights.
//
// A workload of zero batch or sequence takes the model's own figure, except when the
// model has none (symbolic) or only an exporter's trace-time dummy (a static token
// input shorter than kShortestTrainingSequence, such as the 1 x 16 tokens exports are
// traced with): then the defaults below apply, so that nothing is priced for a
// workload nobody trains with. The default sequence is kDefaultSequence, or the rows
// of a learned position table if that is shorter.
class ShapeBinder {
public:
    ShapeBinder(const Graph& graph, const Workload& workload, std::int64_t defaultBatch = kDefaultBatch);

    // Where the bound batch and sequence come from.
    enum class Source : std::uint8_t { Workload, Model, Default };

    [[nodiscard]] std::int64_t batch() const { return batch_; }
    [[nodiscard]] std::int64_t sequence() const { return sequence_; }
    [[nodiscard]] std::int64_t modelBatch() const { return modelBatch_; }
    [[nodiscard]] std::int64_t modelSequence() const { return modelSequence_; }

    [[nodiscard]] Source batchSource() const { return batchSource_; }
    [[nodiscard]] Source sequenceSource() const { return sequenceSource_; }

    [[nodiscard]] std::vector<std::int64_t> extents(const TensorShape& shape) const;
    [[nodiscard]] double elementCount(const TensorShape& shape) const;
    // Whether `axis` of an activation is its sequence axis (a symbolic "...seq..." dim,
    // or the model's static sequence extent after axis 0).
    [[nodiscard]] bool isSequenceAxis(const TensorShape& shape, std::size_t axis) const;

    static constexpr std::int64_t kDefaultBatch = 8;
    // The default batch of a run on `gpus` GPUs (every pipeline stage's): two sequences
    // per GPU, at least kDefaultBatch. The cost model, the exports and the search's
    // workload check all price this one.
    [[nodiscard]] static constexpr std::int64_t defaultBatchFor(std::int64_t gpus)
    {
        return gpus * 2 > kDefaultBatch ? gpus * 2 : kDefaultBatch;
    }
    static constexpr std::int64_t kDefaultSequence = 2048;
    static constexpr std::int64_t kShortestTrainingSequence = 128;

private:
    std::int64_t bind(const Dimension& dim, std::size_t axis) const;
    std::int64_t bindAt(const TensorShape& shape, std::size_t axis) const;

    std::int64_t batch_ = 1;
    std::int64_t sequence_ = 1;
    std::int64_t modelBatch_ = 0;     // 0: symbolic in the model
    std::int64_t modelSequence_ = 0;  // 0: symbolic or absent
    bool rebindStatic_ = false;
    Source batchSource_ = Source::Default;
    Source sequenceSource_ = Source::Default;
};

}  // namespace tapestry
