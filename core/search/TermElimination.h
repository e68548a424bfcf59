#pragma once

#include "search/SearchTerms.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace tapestry {

// What an elimination keeps of the choices it compares.
enum class EliminationGoal : std::uint8_t {
    Fastest,      // the least step time (the least memory among equals)
    LeastMemory,  // the least memory estimate (the least step time among equals)
    Frontier,     // every Pareto point of (step time, memory) whose memory is at most the cap
};

struct EliminationBounds {
    // Frontier: only choices whose memory is at most this.
    double memoryCapBytes = std::numeric_limits<double>::infinity();
    // Frontier: only choices at most this slow (tables drop what cannot end below it,
    // counting every group not yet added at its least seconds).
    double secondsBound = std::numeric_limits<double>::infinity();
    // Fastest: minimize seconds + this x bytes instead (memory priced by a Lagrange
    // multiplier), the least memory among equals.
    double secondsPerByte = 0;
};

struct EliminationLimits {
    // Above this many states in one step's table the problem counts as too entangled.
    std::size_t maxStates = std::size_t{1} << 22;
    // Above this many (time, memory) points kept in all tables together, likewise.
    std::size_t maxPoints = std::size_t{1} << 24;
    // Polled before each group is eliminated and after about every kPollWork steps of
    // filling its table (a step: one candidate of one table entry against one of the
    // entry's factors or child tables, or one Pareto point combined): one entry can take
    // long where candidates or points are many.
    std::function<bool()> cancelled;
    static constexpr std::size_t kPollWork = std::size_t{1} << 14;
};

// The seconds of each eliminated group's candidates at every entry of its table (the
// group's own terms and the time factors eliminated with it). They depend on the program
// alone, not on the goal or the bounds, and filling them is most of an elimination's
// work: a search that eliminates one program several times (its memory limits, the
// chords that bound them, its Pareto alternatives) keeps them here in the first
// elimination and reads them in the later ones, the same values to the last bit. Kept up
// to kMaxCells in all; a larger program's are computed again in each elimination. For
// one program (the terms it is made with, which must outlive it) and one elimination at
// a time.
class EliminationSeconds {
public:
    explicit EliminationSeconds(const SearchTerms& terms) : terms_(&terms) {}

    // 32 MiB: the largest program measured, llama3-8b on dgx-h100x2 2x8, keeps 2.7 M cells
    // (its largest table 90,000 entries x 25 candidates); a search keeps one program's at a
    // time, `--mesh auto` one per mesh searched at once.
    static constexpr std::size_t kMaxCells = std::size_t{1} << 22;

    // Whether an elimination kept them (the later ones read them).
    [[nodiscard]] bool kept() const { return complete_; }

private:
    const SearchTerms* terms_;
    std::vector<std::vector<double>> tables_;  // by elimination step: [entry][candidate]
    std::size_t cells_ = 0;
    bool complete_ = false;
    bool tooLarge_ = false;

    friend class TermEliminator;
    friend class TermElimination;
};

// The exact optimum of SearchTerms' objective over one candidate per group, by variable
// elimination (bucket elimination, Dechter 1999) over the groups' interaction graph: the
// groups are eliminated one at a time in a greedy order that keeps the tables small,
// each into a table over its remaining neighbours of the best the eliminated part can
// do. A folded model's program is a few dozen groups on a ring of blocks, so the tables
// stay at a few hundred thousand states and one elimination takes milliseconds, where
// branch and bound on the integer program (ShardingIlp) takes seconds. Memory is
// separable (a sum over groups), so with the Frontier goal each state keeps the Pareto
// points of (time, memory) instead of one number: every memory limit at or below the
// cap is then answered by one look-up (the search's limit, its retries, its Pareto
// alternatives). Ties are broken the same way on every run: the result is a function
// of the terms alone.
class TermElimination {
public:
    // nullopt when some step would exceed `limits` (too entangled: the caller solves the
    // integer program instead) or when cancelled. With `seconds` (made for `terms`, else
    // Error(InvalidArgument)) the tables' seconds are kept there or read from there.
    [[nodiscard]] static std::optional<TermElimination> solve(const SearchTerms& terms, EliminationGoal goal,
                                                              const EliminationBounds& bounds = {},
                                                              const EliminationLimits& limits = {},
                                                              EliminationSeconds* seconds = nullptr);

    // The points found, by memory ascending and so by step time descending: one for
    // Fastest and LeastMemory, none when no choice is within the bounds.
    [[nodiscard]] std::size_t pointCount() const { return root_.size(); }
    [[nodiscard]] double seconds(std::size_t point) const { return root_[point].seconds; }
    [[nodiscard]] double memoryBytes(std::size_t point) const { return root_[point].bytes; }
    // The candidate index per group of a point.
    [[nodiscard]] std::vector<std::size_t> choice(std::size_t point) const;
    // The fastest point whose memory is at most `limitBytes`.
    [[nodiscard]] std::optional<std::size_t> fastestWithin(double limitBytes) const;
    // States in all tables: the work the elimination did.
    [[nodiscard]] std::size_t states() const { return states_; }

    struct Point {
        double seconds = 0;
        double bytes = 0;
    };
    // One eliminated group's table over its remaining neighbours.
    struct Message {
        std::size_t variable = 0;
        std::vector<std::size_t> scope;          // groups, ascending
        std::vector<std::size_t> strides;        // entry = sum of candidate x stride over scope
        std::vector<std::size_t> children;       // messages the eliminated group's table combined
        std::vector<std::uint32_t> offsets;      // entry -> its points [offsets[e], offsets[e + 1])
        std::vector<Point> points;
        // Per point: the eliminated group's candidate, then the point taken from each child.
        std::vector<std::uint32_t> provenance;
    };

private:
    std::size_t groups_ = 0;
    std::vector<Message> messages_;
    std::vector<std::size_t> rootMessages_;
    std::vector<Point> root_;
    std::vector<std::uint32_t> rootProvenance_;  // per root point: the point of each root message
    std::size_t states_ = 0;

    friend class TermEliminator;
};

}  // namespace tapestry
