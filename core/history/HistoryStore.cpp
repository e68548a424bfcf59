#include "history/HistoryStore.h"

#include "base/Error.h"
#include "history/HistorySchema.h"
#include "history/RunOwner.h"
#include "history/SqliteConnection.h"
#include "history/SqliteStatement.h"
#include "history/SqliteTransaction.h"
#include "plan/PlanFile.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <limits>
#include <set>
#include <system_error>

namespace tapestry {

namespace fs = std::filesystem;

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A row id Tapestry can address: positive and below the ids' invalid value, so that a
// hand-edited row 4294967299 is reported instead of being taken for row 3.
template <class Id>
Id idFrom(const SqliteConnection& db, std::int64_t rowId)
{
    if (rowId <= 0 || rowId >= static_cast<std::int64_t>(Id::kInvalid))
        throw Error(ErrorCode::HistoryCorrupt, db.fileName(),
                    "holds row id " + std::to_string(rowId) + ", outside the ids 1.." +
                        std::to_string(Id::kInvalid - 1) + " Tapestry writes");
    return Id(static_cast<typename Id::ValueType>(rowId));
}

template <class Id>
Id idAt(const SqliteStatement& row, int column)
{
    return row.isNull(column) ? Id() : idFrom<Id>(row.connection(), row.integer(column));
}

template <class Id>
void bindId(SqliteStatement& statement, Id id)
{
    if (id.isValid())
        statement.bind(static_cast<std::int64_t>(id.value()));
    else
        statement.bindNull();
}

std::string joined(const std::vector<std::string>& parts, char separator)
{
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i == 0 ? "" : std::string(1, separator)) + parts[i];
    return text;
}

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    if (text.empty())
        return parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

DataType dataTypeFromName(const std::string& name)
{
    for (int value = 0; value <= static_cast<int>(DataType::Int4); ++value) {
        if (dataTypeName(static_cast<DataType>(value)) == name)
            return static_cast<DataType>(value);
    }
    return DataType::Undefined;
}

std::string idList(const std::vector<PlanRecordId>& ids)
{
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i)
        text += (i == 0 ? "" : ", ") + std::to_string(ids[i].value());
    return text;
}

constexpr const char* kPlanColumns =
    "SELECT p.id, p.run_id, p.parent_id, p.name, p.origin, p.pins, p.plan_json, p.step_seconds, "
    "p.compute_seconds, p.communication_seconds, p.memory_bytes, p.hbm_bytes, p.stale, p.created_at, p.model_id, "
    "m.path, m.fingerprint, c.name, s.shape, s.axis_names "
    "FROM plans p JOIN models m ON m.id = p.model_id JOIN meshes s ON s.id = p.mesh_id "
    "JOIN clusters c ON c.id = s.cluster_id ";

// A read-only file older than version 4 has no fp8_recipe column: its runs had none;
// older than version 5, no workload_json or target: those runs read as the columns say.
std::string runColumns(int schemaVersion)
{
    return std::string("SELECT r.id, r.model_id, r.cluster_id, r.command, r.mode, r.batch, r.sequence, r.compute_type, "
                       "r.optimizer, r.zero1, r.pins, r.memory_limit_bytes, r.status, r.message, r.started_at, "
                       "r.finished_at, m.path, c.name, (SELECT count(*) FROM plans WHERE run_id = r.id), ") +
           (schemaVersion >= fp8RecipeSchemaVersion() ? "r.fp8_recipe, " : "'none', ") +
           (schemaVersion >= runWorkloadSchemaVersion() ? "r.workload_json, r.target " : "'', '' ") +
           "FROM runs r JOIN models m ON m.id = r.model_id JOIN clusters c ON c.id = r.cluster_id ";
}

// Plans made for the model file at ?1 with another fingerprint than ?2, or for the
// cluster named ?3 with another description than ?4.
constexpr const char* kStalePlanIds =
    "SELECT p.id FROM plans p JOIN models m ON m.id = p.model_id JOIN meshes s ON s.id = p.mesh_id "
    "JOIN clusters c ON c.id = s.cluster_id "
    "WHERE (m.path = ?1 AND m.fingerprint <> ?2) OR (c.name = ?3 AND c.description <> ?4)";

PlanRecord planFromRow(const SqliteStatement& row)
{
    PlanRecord plan;
    plan.id = idAt<PlanRecordId>(row, 0);
    plan.run = idAt<RunId>(row, 1);
    plan.parent = idAt<PlanRecordId>(row, 2);
    plan.name = row.text(3);
    plan.origin = planOriginFromName(row.text(4)).value_or(PlanOrigin::Import);
    plan.pins = split(row.text(5), '\n');
    plan.json = row.text(6);
    if (!row.isNull(7))
        plan.cost = PlanCostSummary{row.real(7), row.real(8), row.real(9), row.real(10), row.real(11)};
    plan.stale = row.integer(12) != 0;
    plan.createdAt = row.real(13);
    plan.model = idAt<ModelRecordId>(row, 14);
    plan.modelPath = row.text(15);
    plan.modelFingerprint = row.text(16);
    plan.clusterName = row.text(17);
    const std::string shape = row.text(18);
    std::vector<std::string> sizes = split(shape, 'x');
    if (sizes.empty())
        sizes.emplace_back();  // an empty shape is reported like any other bad one
    const std::vector<std::string> names = split(row.text(19), ',');
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        int size = 0;
        const std::string& text = sizes[i];
        const auto parsed = std::from_chars(text.data(), text.data() + text.size(), size);
        if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || size <= 0)
            throw Error(ErrorCode::HistoryCorrupt, row.connection().fileName(),
                        "plan " + std::to_string(plan.id.value()) + " has the mesh shape '" + shape +
                            "'; expected positive sizes joined by 'x', such as 2x4");
        plan.meshAxes.push_back({i < names.size() ? names[i] : std::string(), size});
    }
    return plan;
}

RunRecord runFromRow(const SqliteStatement& row)
{
    RunRecord run;
    run.id = idAt<RunId>(row, 0);
    run.model = idAt<ModelRecordId>(row, 1);
    run.cluster = idAt<ClusterRecordId>(row, 2);
    run.settings.command = row.text(3);
    run.settings.mode = row.text(4);
    run.settings.workload.batch = row.integer(5);
    run.settings.workload.sequence = row.integer(6);
    run.settings.workload.computeType = dataTypeFromName(row.text(7));
    run.settings.workload.optimizer = row.text(8) == optimizerName(OptimizerKind::SgdMomentum)
                                          ? OptimizerKind::SgdMomentum
                                          : OptimizerKind::AdamMixedPrecision;
    // The zero1 column holds the ZeRO stage (it was named when only stage 1 existed).
    run.settings.workload.zeroStage = static_cast<int>(std::clamp<std::int64_t>(row.integer(9), 0, 3));
    run.settings.pins = split(row.text(10), '\n');
    if (!row.isNull(11))
        run.settings.memoryLimitBytes = row.real(11);
    run.status = runStatusFromName(row.text(12)).value_or(RunStatus::Failed);
    run.message = row.text(13);
    run.startedAt = row.real(14);
    if (!row.isNull(15))
        run.finishedAt = row.real(15);
    run.modelPath = row.text(16);
    run.clusterName = row.text(17);
    run.planCount = static_cast<std::size_t>(row.integer(18));
    const std::string recipe = row.text(19);
    const std::optional<Fp8Recipe> fp8 = fp8RecipeFromName(recipe);
    if (!fp8)
        throw Error(ErrorCode::HistoryCorrupt, row.connection().fileName(),
                    "run " + std::to_string(run.id.value()) + " has the FP8 recipe '" + recipe +
                        "'; expected none, per-tensor or mxfp8");
    run.settings.workload.fp8 = *fp8;
    // Since version 5 the whole workload; the columns above say the same of what they hold.
    if (const std::string json = row.text(20); !json.empty()) {
        try {
            run.settings.workload = workloadFromJson(json, row.connection().fileName());
        } catch (const Error& error) {
            throw Error(ErrorCode::HistoryCorrupt, row.connection().fileName(),
                        "run " + std::to_string(run.id.value()) + " has a workload Tapestry cannot read: " +
                            error.message());
        }
    }
    run.settings.target = row.text(21);
    return run;
}

ModelRecordId storeModel(SqliteConnection& db, const ModelRecord& model)
{
    SqliteStatement insert(db, "INSERT INTO models (fingerprint, path, op_count, parameters, producer) "
                               "VALUES (?, ?, ?, ?, ?) ON CONFLICT (fingerprint, path) DO UPDATE SET "
                               "op_count = excluded.op_count, parameters = excluded.parameters, "
                               "producer = excluded.producer RETURNING id");
    insert.bind(model.fingerprint).bind(model.path).bind(static_cast<std::int64_t>(model.opCount));
    insert.bind(static_cast<std::int64_t>(model.parameters)).bind(model.producer);
    (void)insert.step();
    return idAt<ModelRecordId>(insert, 0);
}

ClusterRecordId storeCluster(SqliteConnection& db, const ClusterRecord& cluster)
{
    // The no-op update makes RETURNING give the existing row's id.
    SqliteStatement insert(db, "INSERT INTO clusters (name, description) VALUES (?, ?) "
                               "ON CONFLICT (name, description) DO UPDATE SET name = excluded.name RETURNING id");
    insert.bind(cluster.name).bind(cluster.description);
    (void)insert.step();
    return idAt<ClusterRecordId>(insert, 0);
}

MeshRecordId storeMesh(SqliteConnection& db, ClusterRecordId cluster, const std::vector<MeshAxis>& axes)
{
    std::vector<std::string> sizes;
    std::vector<std::string> names;
    for (const MeshAxis& axis : axes) {
        sizes.push_back(std::to_string(axis.size));
        names.push_back(axis.name);
    }
    SqliteStatement insert(db, "INSERT INTO meshes (cluster_id, shape, axis_names) VALUES (?, ?, ?) "
                               "ON CONFLICT (cluster_id, shape, axis_names) DO UPDATE SET shape = excluded.shape "
                               "RETURNING id");
    bindId(insert, cluster);
    insert.bind(joined(sizes, 'x')).bind(joined(names, ','));
    (void)insert.step();
    return idAt<MeshRecordId>(insert, 0);
}

PlanRecordId storePlan(SqliteConnection& db, RunId run, ModelRecordId model, ClusterRecordId cluster,
                       const PlanRecord& plan)
{
    const MeshRecordId mesh = storeMesh(db, cluster, plan.meshAxes);
    SqliteStatement insert(db, "INSERT INTO plans (run_id, model_id, mesh_id, parent_id, name, origin, pins, "
                               "plan_json, step_seconds, compute_seconds, communication_seconds, memory_bytes, "
                               "hbm_bytes, fits, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bindId(insert, run);
    bindId(insert, model);
    bindId(insert, mesh);
    bindId(insert, plan.parent);
    insert.bind(plan.name).bind(std::string_view(planOriginName(plan.origin))).bind(joined(plan.pins, '\n'));
    insert.bind(plan.json);
    if (plan.cost) {
        const PlanCostSummary& c = *plan.cost;
        insert.bind(c.stepSeconds).bind(c.computeSeconds).bind(c.communicationSeconds).bind(c.memoryBytes);
        insert.bind(c.hbmBytes).bind(static_cast<std::int64_t>(*plan.fitsInMemory()));
    } else {
        insert.bindNull().bindNull().bindNull().bindNull().bindNull().bindNull();
    }
    insert.bind(now());
    insert.run();
    const PlanRecordId id = idFrom<PlanRecordId>(db, db.lastInsertRowId());
    for (const std::string& tag : plan.tags) {
        SqliteStatement tagInsert(db, "INSERT OR IGNORE INTO plan_tags (plan_id, tag) VALUES (?, ?)");
        bindId(tagInsert, id);
        tagInsert.bind(tag).run();
    }
    for (const std::string& note : plan.notes) {
        SqliteStatement noteInsert(db, "INSERT INTO plan_notes (plan_id, text, created_at) VALUES (?, ?, ?)");
        bindId(noteInsert, id);
        noteInsert.bind(note).bind(now()).run();
    }
    return id;
}

}  // namespace

const char* runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Cancelled: return "cancelled";
    case RunStatus::Failed: return "failed";
    case RunStatus::Interrupted: return "interrupted";
    }
    return "failed";
}

std::optional<RunStatus> runStatusFromName(std::string_view name)
{
    for (const RunStatus status : {RunStatus::Running, RunStatus::Finished, RunStatus::Cancelled, RunStatus::Failed,
                                    RunStatus::Interrupted}) {
        if (name == runStatusName(status))
            return status;
    }
    return std::nullopt;
}

HistoryStore::HistoryStore(const fs::path& file, HistoryStoreOptions options) : file_(file)
{
    std::error_code ec;
    SqliteConnection::Mode mode = options.readOnly ? SqliteConnection::Mode::ReadOnly : SqliteConnection::Mode::ReadWrite;
    if (fs::exists(file, ec)) {
        if (!fs::is_regular_file(file, ec))
            throw Error(ErrorCode::NotARegularFile, file.string(), "is not a regular file");
        // Honour a write-protected file even where the process could write it anyway
        // (root). Nobody writes it, so it is read as it lies, without side files; unless
        // a crash left a write-ahead log beside it, whose commits only a normal reader
        // sees.
        const fs::perms writable = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
        if ((fs::status(file, ec).permissions() & writable) == fs::perms::none)
            mode = fs::exists(file.string() + "-wal", ec) ? SqliteConnection::Mode::ReadOnly
                                                           : SqliteConnection::Mode::Unchanging;
    } else if (options.readOnly) {
        throw Error(ErrorCode::FileNotFound, file.string(), "no history database here yet");
    } else if (file.has_parent_path()) {
        fs::create_directories(file.parent_path(), ec);
        if (ec)
            throw Error(ErrorCode::WriteFailed, file.parent_path().string(), "cannot create the folder: " + ec.message());
    }
    db_ = std::make_unique<SqliteConnection>(file, mode, options.busyTimeoutMs);
    int version = 0;
    try {
        version = storedSchemaVersion(*db_);
    } catch (const Error& error) {
        // A WAL file SQLite may not write (nor create -shm beside, in a folder the user
        // may not write): read it as it lies, or through a private copy with its log.
        if (error.code() != ErrorCode::HistoryReadOnly && error.code() != ErrorCode::ReadFailed)
            throw;
        db_.reset();
        openForReadingOnly(options.busyTimeoutMs);
        version = storedSchemaVersion(*db_);
    }
    schemaVersion_ = version;
    if (isReadOnly()) {
        if (version < oldestReadableSchemaVersion())
            throw Error(ErrorCode::HistoryReadOnly, file.string(),
                        "has history schema version " + std::to_string(version) + " and needs version " +
                            std::to_string(historySchemaVersion()) + ", but it is read-only");
        return;
    }
    if (refuseWritesIfDamaged())
        return;
    migrateHistory(*db_);
    schemaVersion_ = historySchemaVersion();
    // After the migration, so that a file the migration refuses is left exactly as it was.
    db_->useWriteAheadLog();
    db_->exec("PRAGMA foreign_keys = ON");
    markInterruptedRuns();
}

bool HistoryStore::refuseWritesIfDamaged()
{
    std::string findings;
    {
        SqliteStatement check(*db_, "PRAGMA quick_check(3)");
        while (check.step()) {
            const std::string finding = check.text(0);
            if (finding != "ok")
                findings += (findings.empty() ? "" : "; ") + finding;
        }
    }
    if (findings.empty())
        return false;
    // The text a read that meets the damage gets, so both say the same.
    const Error damage = db_->damage("PRAGMA quick_check found: " + findings + "; nothing was written");
    db_->refuseWrites(damage);
    // Its migration would be a write.
    if (storedSchemaVersion(*db_) < oldestReadableSchemaVersion())
        throw damage;
    return true;
}

void HistoryStore::markInterruptedRuns()
{
    std::vector<RunId> orphans;
    {
        SqliteStatement query(*db_, "SELECT id, owner FROM runs WHERE status = 'running'");
        while (query.step()) {
            if (!runOwnerIsAlive(query.text(1)))
                orphans.push_back(idAt<RunId>(query, 0));
        }
    }
    if (orphans.empty())
        return;
    SqliteTransaction transaction(*db_);
    for (const RunId run : orphans) {
        // Still running: another process may have finished it since the query.
        SqliteStatement update(*db_, "UPDATE runs SET status = ?, message = ? WHERE id = ? AND status = 'running'");
        update.bind(std::string_view(runStatusName(RunStatus::Interrupted)))
            .bind(std::string_view("the process running it ended before it finished"));
        bindId(update, run);
        update.run();
    }
    transaction.commit();
}

void HistoryStore::openForReadingOnly(int busyTimeoutMs)
{
    std::error_code ec;
    const fs::path log = file_.string() + "-wal";
    if (!fs::exists(log, ec)) {
        db_ = std::make_unique<SqliteConnection>(file_, SqliteConnection::Mode::Unchanging, busyTimeoutMs);
        readingNote_ = "cannot be written here: read as it lies (immutable), nothing will be written";
        return;
    }
    // Its write-ahead log holds commits an immutable reader would miss: copy both.
    const fs::path folder = fs::temp_directory_path(ec) / ("tapestry-history-" + std::to_string(::getpid()) + "-" +
                                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::create_directories(folder, ec);
    const fs::path copy = folder / file_.filename();
    fs::copy_file(file_, copy, fs::copy_options::overwrite_existing, ec);
    if (!ec)
        fs::copy_file(log, copy.string() + "-wal", fs::copy_options::overwrite_existing, ec);
    if (ec) {
        fs::remove_all(folder, ec);
        throw Error(ErrorCode::HistoryReadOnly, file_.string(),
                    "cannot be written here and cannot be copied to read its write-ahead log: " + ec.message());
    }
    for (const fs::path& part : {copy, fs::path(copy.string() + "-wal")})
        fs::permissions(part, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
    privateCopy_ = folder;
    db_ = std::make_unique<SqliteConnection>(copy, SqliteConnection::Mode::ReadOnly, busyTimeoutMs);
    readingNote_ = "cannot be written here: read through a private copy with its write-ahead log (" + copy.string() +
                   "), nothing will be written";
}

HistoryStore::~HistoryStore()
{
    db_.reset();
    if (!privateCopy_.empty()) {
        std::error_code ec;
        fs::remove_all(privateCopy_, ec);
    }
}

bool HistoryStore::isReadOnly() const
{
    return db_->isReadOnly();
}

RunId HistoryStore::beginRun(const ModelRecord& model, const ClusterRecord& cluster, const RunSettings& settings)
{
    SqliteTransaction transaction(*db_);
    const ModelRecordId modelId = storeModel(*db_, model);
    const ClusterRecordId clusterId = storeCluster(*db_, cluster);
    SqliteStatement insert(*db_, "INSERT INTO runs (command, model_id, cluster_id, mode, batch, sequence, "
                                 "compute_type, optimizer, zero1, pins, memory_limit_bytes, status, started_at, owner, "
                                 "fp8_recipe, workload_json, target) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                 "?, ?)");
    insert.bind(settings.command);
    bindId(insert, modelId);
    bindId(insert, clusterId);
    const Workload& w = settings.workload;
    insert.bind(settings.mode).bind(static_cast<std::int64_t>(w.batch)).bind(static_cast<std::int64_t>(w.sequence));
    insert.bind(dataTypeName(w.computeType)).bind(std::string_view(optimizerName(w.optimizer)));
    insert.bind(static_cast<std::int64_t>(w.zeroStage)).bind(joined(settings.pins, '\n')).bind(settings.memoryLimitBytes);
    insert.bind(std::string_view(runStatusName(RunStatus::Running))).bind(now()).bind(currentRunOwner());
    insert.bind(std::string_view(fp8RecipeName(w.fp8))).bind(workloadToJson(w)).bind(settings.target);
    insert.run();
    const RunId id = idFrom<RunId>(*db_, db_->lastInsertRowId());
    transaction.commit();
    return id;
}

std::vector<PlanRecordId> HistoryStore::finishRun(RunId run, RunStatus status, std::string_view message,
                                                  const std::vector<PlanRecord>& plans)
{
    SqliteTransaction transaction(*db_);
    SqliteStatement owner(*db_, "SELECT model_id, cluster_id FROM runs WHERE id = ?");
    bindId(owner, run);
    if (!owner.step())
        throw Error(ErrorCode::HistoryRecordNotFound, file_.string(), "has no run " + std::to_string(run.value()));
    const auto model = idAt<ModelRecordId>(owner, 0);
    const auto cluster = idAt<ClusterRecordId>(owner, 1);
    SqliteStatement update(*db_, "UPDATE runs SET status = ?, message = ?, finished_at = ? WHERE id = ?");
    update.bind(std::string_view(runStatusName(status))).bind(message).bind(now());
    bindId(update, run);
    update.run();
    std::vector<PlanRecordId> ids;
    for (const PlanRecord& plan : plans)
        ids.push_back(storePlan(*db_, run, model, cluster, plan));
    transaction.commit();
    return ids;
}

PlanRecordId HistoryStore::addPlan(const ModelRecord& model, const ClusterRecord& cluster, const PlanRecord& plan)
{
    SqliteTransaction transaction(*db_);
    const ModelRecordId modelId = storeModel(*db_, model);
    const ClusterRecordId clusterId = storeCluster(*db_, cluster);
    const PlanRecordId id = storePlan(*db_, RunId(), modelId, clusterId, plan);
    transaction.commit();
    return id;
}

RunRecord HistoryStore::run(RunId id) const
{
    SqliteStatement query(*db_, runColumns(schemaVersion_) + "WHERE r.id = ?");
    bindId(query, id);
    if (!query.step())
        throw Error(ErrorCode::HistoryRecordNotFound, file_.string(), "has no run " + std::to_string(id.value()));
    return runFromRow(query);
}

PlanRecord HistoryStore::plan(PlanRecordId id) const
{
    PlanRecord plan;
    {
        SqliteStatement query(*db_, std::string(kPlanColumns) + "WHERE p.id = ?");
        bindId(query, id);
        if (!query.step())
            throw Error(ErrorCode::HistoryRecordNotFound, file_.string(), "has no plan " + std::to_string(id.value()));
        plan = planFromRow(query);
    }
    SqliteStatement tags(*db_, "SELECT tag FROM plan_tags WHERE plan_id = ? ORDER BY tag");
    bindId(tags, id);
    while (tags.step())
        plan.tags.push_back(tags.text(0));
    SqliteStatement notes(*db_, "SELECT text FROM plan_notes WHERE plan_id = ? ORDER BY id");
    bindId(notes, id);
    while (notes.step())
        plan.notes.push_back(notes.text(0));
    return plan;
}

std::vector<RunRecord> HistoryStore::recentRuns(std::size_t limit) const
{
    SqliteStatement query(*db_, runColumns(schemaVersion_) + "ORDER BY r.id DESC LIMIT ?");
    query.bind(static_cast<std::int64_t>(limit));
    std::vector<RunRecord> runs;
    while (query.step())
        runs.push_back(runFromRow(query));
    return runs;
}

std::vector<PlanRecord> HistoryStore::recentPlans(std::size_t limit) const
{
    std::vector<PlanRecordId> ids;
    {
        SqliteStatement query(*db_, "SELECT id FROM plans ORDER BY id DESC LIMIT ?");
        query.bind(static_cast<std::int64_t>(limit));
        while (query.step())
            ids.push_back(idAt<PlanRecordId>(query, 0));
    }
    std::vector<PlanRecord> plans;
    for (const PlanRecordId id : ids)
        plans.push_back(plan(id));
    return plans;
}

std::vector<PlanRecord> HistoryStore::plansOfRun(RunId run) const
{
    std::vector<PlanRecordId> ids;
    {
        SqliteStatement query(*db_, "SELECT id FROM plans WHERE run_id = ? ORDER BY id");
        bindId(query, run);
        while (query.step())
            ids.push_back(idAt<PlanRecordId>(query, 0));
    }
    std::vector<PlanRecord> plans;
    for (const PlanRecordId id : ids)
        plans.push_back(plan(id));
    return plans;
}

std::vector<PlanRecordId> HistoryStore::lineage(PlanRecordId id) const
{
    requirePlan(id);
    std::vector<PlanRecordId> chain{id};
    std::set<PlanRecordId> seen{id};
    SqliteStatement parentOf(*db_, "SELECT parent_id FROM plans WHERE id = ?");
    while (true) {
        parentOf.reset();
        bindId(parentOf, chain.back());
        if (!parentOf.step() || parentOf.isNull(0))
            return chain;
        const auto parent = idAt<PlanRecordId>(parentOf, 0);
        // Only a hand-edited file gets here: the store sets a parent once, to an older plan.
        if (!seen.insert(parent).second)
            throw Error(ErrorCode::HistoryCorrupt, file_.string(),
                        "the parents of plan " + std::to_string(id.value()) + " loop back to plan " +
                            std::to_string(parent.value()) + " (through " + idList(chain) + ")");
        chain.push_back(parent);
    }
}

void HistoryStore::requirePlan(PlanRecordId id) const
{
    SqliteStatement query(*db_, "SELECT 1 FROM plans WHERE id = ?");
    bindId(query, id);
    if (!query.step())
        throw Error(ErrorCode::HistoryRecordNotFound, file_.string(), "has no plan " + std::to_string(id.value()));
}

std::vector<PlanRecordId> HistoryStore::children(PlanRecordId id) const
{
    SqliteStatement query(*db_, "SELECT id FROM plans WHERE parent_id = ? ORDER BY id");
    bindId(query, id);
    std::vector<PlanRecordId> ids;
    while (query.step())
        ids.push_back(idAt<PlanRecordId>(query, 0));
    return ids;
}

void HistoryStore::tagPlan(PlanRecordId id, std::string_view tag)
{
    SqliteTransaction transaction(*db_);
    requirePlan(id);
    SqliteStatement insert(*db_, "INSERT OR IGNORE INTO plan_tags (plan_id, tag) VALUES (?, ?)");
    bindId(insert, id);
    insert.bind(tag).run();
    transaction.commit();
}

void HistoryStore::addNote(PlanRecordId id, std::string_view text)
{
    SqliteTransaction transaction(*db_);
    requirePlan(id);
    SqliteStatement insert(*db_, "INSERT INTO plan_notes (plan_id, text, created_at) VALUES (?, ?, ?)");
    bindId(insert, id);
    insert.bind(text).bind(now()).run();
    transaction.commit();
}

void HistoryStore::deletePlan(PlanRecordId id, bool force)
{
    SqliteTransaction transaction(*db_);
    requirePlan(id);
    const std::vector<PlanRecordId> derived = children(id);
    if (!derived.empty() && !force)
        throw Error(ErrorCode::HistoryPlanInUse, file_.string(),
                    "plan " + std::to_string(id.value()) + " is the parent of plan(s) " + idList(derived) +
                        "; deleting it would cut their lineage, so it was kept");
    // Tags and notes go with it (ON DELETE CASCADE); children lose their parent (SET NULL).
    SqliteStatement erase(*db_, "DELETE FROM plans WHERE id = ?");
    bindId(erase, id);
    erase.run();
    transaction.commit();
}

std::vector<PlanRecordId> HistoryStore::markStalePlans(const CurrentInputs& current)
{
    SqliteTransaction transaction(*db_);
    auto bindInputs = [&](SqliteStatement& statement) {
        statement.bind(current.modelPath).bind(current.modelFingerprint).bind(current.clusterName);
        statement.bind(current.clusterDescription);
    };
    SqliteStatement mark(*db_, std::string("UPDATE plans SET stale = 1 WHERE stale = 0 AND id IN (") + kStalePlanIds + ")");
    bindInputs(mark);
    mark.run();
    SqliteStatement query(*db_, std::string(kStalePlanIds) + " ORDER BY p.id");
    bindInputs(query);
    std::vector<PlanRecordId> ids;
    while (query.step())
        ids.push_back(idAt<PlanRecordId>(query, 0));
    transaction.commit();
    return ids;
}

}  // namespace tapestry
