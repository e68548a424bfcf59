#pragma once

#include <optional>
#include <string_view>

namespace tapestry {

enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, AllToAll };

inline constexpr CollectiveKind kAllCollectiveKinds[] = {
    CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
    CollectiveKind::AllToAll};

// "allReduce", "allGather", "reduceScatter", "allToAll" (the names used in cluster JSON).
[[nodiscard]] const char* collectiveKindName(CollectiveKind kind);
[[nodiscard]] std::optional<CollectiveKind> collectiveKindFromName(std::string_view name);

// nccl-tests' ratio busbw / algbw for a group of n ranks: 2(n-1)/n for AllReduce,
// (n-1)/n for the others. It is also the factor f in the ring time f * S / B, so a
// measured bus bandwidth converts back to time as f * S / busbw. Zero for n <= 1.
[[nodiscard]] double busBandwidthFactor(CollectiveKind kind, int groupSize);

}  // namespace tapestry
