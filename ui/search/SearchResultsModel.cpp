#include "search/SearchResultsModel.h"

#include "plans/PlanInspector.h"
#include "plans/PlanThroughput.h"
#include "search/SearchOutcome.h"
#include "plan/ExpertPlans.h"
#include "plan/PhysicalLayout.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

QString milliseconds(double seconds)
{
    return QStringLiteral("%L1").arg(seconds * 1e3, 0, 'f', 1);
}

QString gigabytes(double bytes)
{
    return QStringLiteral("%L1").arg(bytes / 1e9, 0, 'f', 2);
}

bool samePrice(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

// Rows a search lists that can stand for each other: its plans and the expert layouts,
// not a provisional best so far nor a plan opened from elsewhere.
bool groupable(const PlanCandidate& candidate)
{
    return candidate.role == PlanCandidate::Role::Best || candidate.role == PlanCandidate::Role::Alternative ||
           candidate.role == PlanCandidate::Role::Expert;
}

}  // namespace

SearchResultsModel::SearchResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SearchResultsModel::setResults(std::shared_ptr<const SearchOutcome> results)
{
    beginResetModel();
    results_ = std::move(results);
    throughputs_.clear();
    markRepeats();
    if (results_ && pricing_) {
        for (const std::shared_ptr<const PlanCandidate>& candidate : results_->candidates) {
            if (const std::optional<Throughput> throughput = pricing_->of(*candidate))
                throughputs_[candidate.get()] = *throughput;
        }
    }
    endResetModel();
}

void SearchResultsModel::setThroughput(std::shared_ptr<PlanThroughput> throughput)
{
    pricing_ = std::move(throughput);
}

std::optional<Throughput> SearchResultsModel::throughput(int row) const
{
    const std::shared_ptr<const PlanCandidate> c = candidate(row);
    const auto found = c ? throughputs_.find(c.get()) : throughputs_.end();
    return found == throughputs_.end() ? std::nullopt : std::optional<Throughput>(found->second);
}

void SearchResultsModel::markRepeats()
{
    const std::size_t rows = results_ ? results_->candidates.size() : 0;
    repeats_.assign(rows, false);
    foundOn_.clear();
    if (!results_)
        return;
    // One physical plan (the same splits over the same ranks, pipeline and workload, at
    // the same price) is one row, whichever meshes gave it: data parallel 16 comes from
    // the search of [16], [2, 8], [4, 4] and [8, 2], as each mesh's expert layout and as a
    // stack's [16, 1]. The kept row is the search's best when it is one of them (the window
    // opens it), else the first searched row, else the first expert one.
    const std::shared_ptr<const PlanCandidate> best = results_->best();
    const auto rank = [&](std::size_t row) {
        const PlanCandidate& c = *results_->candidates[row];
        return &c == best.get() ? 0 : c.role == PlanCandidate::Role::Expert ? 2 : 1;
    };
    std::vector<std::size_t> order;
    for (std::size_t row = 0; row < rows; ++row)
        if (groupable(*results_->candidates[row]))
            order.push_back(row);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });

    struct Group {
        const PlanCandidate* keeper;
        PhysicalLayout layout;
        std::vector<std::size_t> rows;
    };
    std::vector<Group> groups;
    for (const std::size_t row : order) {
        const PlanCandidate& c = *results_->candidates[row];
        PhysicalLayout layout = physicalLayout(c.plan);
        const auto same = std::find_if(groups.begin(), groups.end(), [&](const Group& group) {
            const PlanCandidate& k = *group.keeper;
            return &k == &c || (samePrice(k.stepSeconds(), c.stepSeconds()) && samePrice(k.memoryBytes(), c.memoryBytes()) &&
                                k.plan.pipeline == c.plan.pipeline && k.workload == c.workload && group.layout == layout);
        });
        if (same == groups.end()) {
            groups.push_back({&c, std::move(layout), {row}});
            continue;
        }
        same->rows.push_back(row);
        repeats_[row] = true;
    }
    // The meshes each kept row stands for: those whose search listed one of its rows (the
    // searched mesh, which a stack may have laid out on its own), its own first.
    const auto searchedMesh = [&](std::size_t row) {
        const bool known =
            row < results_->candidateMeshes.size() && results_->candidateMeshes[row] < results_->meshes.size();
        return QString::fromStdString(known ? results_->meshes[results_->candidateMeshes[row]].meshText
                                            : results_->candidates[row]->meshText);
    };
    for (const Group& group : groups) {
        QStringList meshes;
        for (std::size_t row = 0; row < rows && meshes.isEmpty(); ++row)
            if (results_->candidates[row].get() == group.keeper)
                meshes << searchedMesh(row);
        std::vector<std::size_t> members = group.rows;
        std::sort(members.begin(), members.end());
        for (const std::size_t row : members)
            if (const QString mesh = searchedMesh(row); !meshes.contains(mesh))
                meshes << mesh;
        if (meshes.size() > 1)
            foundOn_[group.keeper] = meshes;
    }
}

bool SearchResultsModel::isRepeat(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < repeats_.size() && repeats_[static_cast<std::size_t>(row)];
}

int SearchResultsModel::rowsAbovePeak() const
{
    return static_cast<int>(std::count_if(throughputs_.begin(), throughputs_.end(),
                                          [](const auto& entry) { return PlanThroughput::abovePeak(entry.second); }));
}

std::shared_ptr<const PlanCandidate> SearchResultsModel::candidate(int row) const
{
    if (!results_ || row < 0 || row >= rowCount())
        return nullptr;
    return results_->candidates[static_cast<std::size_t>(row)];
}

int SearchResultsModel::rowOf(const PlanCandidate* candidate) const
{
    for (int row = 0; row < rowCount(); ++row) {
        if (results_->candidates[static_cast<std::size_t>(row)].get() == candidate)
            return row;
    }
    return -1;
}

QString SearchResultsModel::planLabel(const PlanCandidate& candidate)
{
    if (candidate.role == PlanCandidate::Role::Expert) {
        switch (expertPlanFromName(candidate.plan.name).value_or(ExpertPlanKind::DataParallel)) {
        case ExpertPlanKind::DataParallel: return tr("Data parallel");
        case ExpertPlanKind::Megatron: return tr("Megatron-LM");
        case ExpertPlanKind::MegatronSequenceParallel: return tr("Megatron-LM + sequence parallel");
        case ExpertPlanKind::RingAttention: return tr("Context parallel (ring attention)");
        case ExpertPlanKind::Ulysses: return tr("Context parallel (Ulysses)");
        }
    }
    return QString::fromStdString(candidate.plan.name);
}

const PlanCandidate* SearchResultsModel::dominatorOf(const PlanCandidate& candidate, const SearchOutcome& results)
{
    for (const auto& other : results.candidates) {
        if (other.get() == &candidate || other->role == PlanCandidate::Role::BestSoFar)
            continue;
        const bool noWorse = other->stepSeconds() <= candidate.stepSeconds() && other->memoryBytes() <= candidate.memoryBytes();
        const bool better = other->stepSeconds() < candidate.stepSeconds() || other->memoryBytes() < candidate.memoryBytes();
        if (noWorse && better)
            return other.get();
    }
    return nullptr;
}

QString SearchResultsModel::roleLabel(const PlanCandidate& candidate, const SearchOutcome* results)
{
    const bool fits = !results || candidate.memoryBytes() <= results->memoryLimitBytes;
    switch (candidate.role) {
    case PlanCandidate::Role::Best:
        // Each searched mesh has a best plan; "fastest" is the search's own.
        if (results && fits && results->best().get() != &candidate)
            return tr("Searched: best of its mesh");
        return fits ? tr("Searched: fastest") : tr("Searched: least memory (none fits)");
    case PlanCandidate::Role::Alternative:
        if (const PlanCandidate* better = results ? dominatorOf(candidate, *results) : nullptr)
            return tr("Searched: dominated by %1").arg(planLabel(*better));
        return tr("Searched: Pareto alternative");
    case PlanCandidate::Role::BestSoFar: return tr("Best so far (provisional)");
    case PlanCandidate::Role::Expert: return tr("Expert reference");
    case PlanCandidate::Role::Opened:
        switch (candidate.plan.origin) {
        case PlanOrigin::Expert: return tr("Expert plan");
        case PlanOrigin::Search: return tr("Searched");
        case PlanOrigin::Edit: return tr("Edited");
        case PlanOrigin::Import: return tr("Imported");
        }
    }
    return {};
}

int SearchResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !results_ ? 0 : static_cast<int>(results_->candidates.size());
}

int SearchResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SearchResultsModel::data(const QModelIndex& index, int role) const
{
    const std::shared_ptr<const PlanCandidate> c = candidate(index.row());
    if (!c || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    const TimeBreakdown& time = c->evaluation.total.time;
    const bool fits = c->memoryBytes() <= results_->memoryLimitBytes;
    const std::optional<Throughput> rate = throughput(index.row());
    const bool abovePeak = rate && PlanThroughput::abovePeak(*rate);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case PlanColumn: return planLabel(*c);
        case OriginColumn: return roleLabel(*c, results_.get());
        case MeshColumn:
            if (const auto found = foundOn_.find(c.get()); found != foundOn_.end())
                return tr("%1 +%2", "a mesh and how many more meshes gave the same plan")
                    .arg(QString::fromStdString(c->meshText))
                    .arg(found->second.size() - 1);
            return QString::fromStdString(c->meshText);
        case StepColumn: return milliseconds(time.stepSeconds());
        case MfuColumn:
            return rate ? QStringLiteral("%L1 %%2").arg(rate->modelFlopsUtilization * 100, 0, 'f', 1)
                                                    .arg(abovePeak ? QStringLiteral(" ⚠") : QString())
                        : QString();
        case TokensColumn: return rate ? QStringLiteral("%L1").arg(rate->tokensPerSecondPerGpu, 0, 'f', 0) : QString();
        case MemoryColumn: return gigabytes(c->memoryBytes());
        case FitsColumn: return fits ? tr("yes") : tr("no");
        }
    } else if (role == SortRole) {
        switch (index.column()) {
        case PlanColumn: return planLabel(*c);
        case OriginColumn: return static_cast<int>(c->role);
        case MeshColumn: return QString::fromStdString(c->meshText);
        case StepColumn: return time.stepSeconds();
        case MfuColumn: return rate ? rate->modelFlopsUtilization : 0.0;
        case TokensColumn: return rate ? rate->tokensPerSecondPerGpu : 0.0;
        case MemoryColumn: return c->memoryBytes();
        case FitsColumn: return fits;
        }
    } else if (role == Qt::TextAlignmentRole) {
        if (index.column() >= StepColumn && index.column() <= MemoryColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ForegroundRole) {
        if (((index.column() == FitsColumn || index.column() == MemoryColumn) && !fits) ||
            (index.column() == MfuColumn && abovePeak))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        const bool dominated = c->role == PlanCandidate::Role::Alternative && dominatorOf(*c, *results_);
        if (c->role == PlanCandidate::Role::Expert || dominated)
            return QBrush(QColor(0x55, 0x55, 0x55));
    } else if (role == Qt::ToolTipRole && (index.column() == PlanColumn || index.column() == OriginColumn)) {
        // The plan's name and origin both: on a laptop the Origin column is hidden.
        return QStringLiteral("%1 · %2\n%3").arg(planLabel(*c), roleLabel(*c, results_.get()),
                                                 PlanInspector::workloadText(*c));
    } else if (role == Qt::ToolTipRole && index.column() == MeshColumn && !foundOn_.count(c.get())) {
        return QString::fromStdString(c->meshText);
    } else if (role == Qt::ToolTipRole && index.column() == MeshColumn) {
        return tr("One plan on the devices, at the same price, found on %1 meshes (by the search or as the mesh's "
                  "expert layout): %2")
            .arg(foundOn_.at(c.get()).size())
            .arg(foundOn_.at(c.get()).join(QStringLiteral("; ")));
    } else if (role == Qt::ToolTipRole && (index.column() == MfuColumn || index.column() == TokensColumn) && rate) {
        return tr("%1\nModel FLOPs (3 × forward, recomputation not counted) over the step time and the peak of "
                  "every GPU of the mesh.")
            .arg(PlanThroughput::text(*rate));
    } else if (role == Qt::ToolTipRole && index.column() == StepColumn) {
        return tr("Compute %1 ms, communication %2 ms (%3 ms of it hidden under compute)")
            .arg(milliseconds(time.computeSeconds), milliseconds(time.communicationSeconds()),
                 milliseconds(time.hiddenSeconds));
    } else if (role == Qt::ToolTipRole && (index.column() == FitsColumn || index.column() == MemoryColumn)) {
        return tr("%1 GB of %2 GB per device")
            .arg(gigabytes(c->memoryBytes()), gigabytes(results_->memoryLimitBytes));
    }
    return {};
}

QVariant SearchResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == MfuColumn)
        return tr("Model FLOPs utilization: the model's FLOPs per step over the step time and the GPUs' peak");
    if (role == Qt::ToolTipRole && section == TokensColumn)
        return tr("Tokens per second per GPU");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PlanColumn: return tr("Plan");
    case OriginColumn: return tr("Origin");
    case MeshColumn: return tr("Mesh");
    case StepColumn: return tr("Step (ms)");
    case MfuColumn: return tr("MFU");
    case TokensColumn: return tr("tok/s");
    case MemoryColumn: return tr("Memory (GB)");
    case FitsColumn: return tr("Fits");
    }
    return {};
}

}  // namespace tapestry
