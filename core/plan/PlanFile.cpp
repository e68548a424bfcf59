#include "plan/PlanFile.h"

#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/JsonReader.h"
#include "base/NearMiss.h"
#include "base/TextFile.h"
#include "cost/AttentionKernelNames.h"
#include "cost/WorkloadCheck.h"
#include "plan/plan.pb.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace tapestry {

namespace {

namespace pb = tapestry::planfile;

// The types workload.gradient_reduce_type names.
constexpr DataType kReduceTypes[] = {DataType::Float32, DataType::BFloat16, DataType::Float16};

// "model/layers.7/self_attn/q_proj/MatMul" in instance "model/layers.7" ->
// "self_attn/q_proj/MatMul"; the instance's own node ("model/layers.7") -> ".".
std::string relativeName(const std::string& nodeName, const std::string& instanceScope)
{
    std::string rest = nodeName.substr(std::min(instanceScope.size(), nodeName.size()));
    if (!rest.empty() && rest.front() == '/')
        rest.erase(0, 1);
    return rest.empty() ? "." : rest;
}

void writeSplits(pb::NodeStrategy& out, const std::string& node, const NodeStrategy& strategy)
{
    out.set_node(node);
    for (const AxisSplit split : strategy.axes)
        out.add_splits(axisSplitName(split));
}

NodeStrategy readSplits(const pb::NodeStrategy& in, std::size_t axes, const std::string& fileName)
{
    if (static_cast<std::size_t>(in.splits_size()) != axes)
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "node '" + in.node() + "' has " + std::to_string(in.splits_size()) + " splits for " +
                        std::to_string(axes) + " mesh axes");
    NodeStrategy strategy;
    for (const std::string& name : in.splits()) {
        const auto split = axisSplitFromName(name);
        if (!split)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "node '" + in.node() + "' has the unknown split '" + name +
                            "' (known: none, batch, sequence, column, row, head, hidden)");
        strategy.axes.push_back(*split);
    }
    return strategy;
}

// The largest mesh axis and mesh a plan may name: 2^20 GPUs, ten times today's largest
// clusters, keeps every product of sizes within int.
constexpr std::int64_t kMaxMeshDevices = std::int64_t{1} << 20;

// What the protobuf JSON mapping cannot say about a workload: sizes within range, a known
// optimizer and compute type, a capacity factor and replicas that are numbers Tapestry prices.
void checkWorkloadFields(const pb::Workload& workload, const std::string& fileName)
{
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::InvalidPlan, fileName, what); };
    const auto checkSize = [&](bool present, std::int64_t value, const char* field, const char* absent) {
        if (present && (value < 1 || value > kMaxWorkloadSize))
            fail(std::string("workload.") + field + " is " + std::to_string(value) + "; it is 1 to " +
                 std::to_string(kMaxWorkloadSize) + " (leave it out for " + absent + ")");
    };
    checkSize(workload.has_batch(), workload.batch(), "batch", "the model's own");
    checkSize(workload.has_sequence(), workload.sequence(), "sequence", "the model's own");
    checkSize(workload.has_micro_batch(), workload.micro_batch(), "micro_batch", "the whole per-rank batch at once");
    if (!workload.optimizer().empty() && workload.optimizer() != "adam" && workload.optimizer() != "sgd")
        fail("workload.optimizer is '" + workload.optimizer() + "', not adam or sgd");
    if (!workload.compute_type().empty() && workload.compute_type() != dataTypeName(DataType::BFloat16) &&
        workload.compute_type() != dataTypeName(DataType::Float16) &&
        workload.compute_type() != dataTypeName(DataType::Float32))
        fail("workload.compute_type is '" + workload.compute_type() + "', not " +
             std::string(dataTypeName(DataType::BFloat16)) + ", " + std::string(dataTypeName(DataType::Float16)) +
             " or " + std::string(dataTypeName(DataType::Float32)));
    if (workload.has_capacity_factor() && !isCapacityFactor(workload.capacity_factor()))
        fail("workload.capacity_factor is " + capacityFactorText(workload.capacity_factor()) +
             "; it is a number above 0 and up to " + capacityFactorText(kMaxCapacityFactor) + " (leave it out for 1)");
    if (workload.has_zero_replicas() && (workload.zero_replicas() < 1 || workload.zero_replicas() > kMaxMeshDevices))
        fail("workload.zero_replicas is " + std::to_string(workload.zero_replicas()) + "; it is 1 to " +
             std::to_string(kMaxMeshDevices) + " (leave it out for one shard group of every data-parallel rank)");
}

// What the protobuf JSON mapping cannot say about a plan: sizes within range, axis names
// present and distinct, a known optimizer, costs that are numbers.
void checkFields(const pb::Plan& in, const std::string& fileName)
{
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::InvalidPlan, fileName, what); };
    if (in.mesh_size() == 0)
        fail("names no mesh axes");
    std::int64_t devices = 1;
    std::vector<std::string> names;
    for (int a = 0; a < in.mesh_size(); ++a) {
        const pb::MeshAxis& axis = in.mesh(a);
        const std::string where = "mesh axis " + std::to_string(a) + " ('" + axis.name() + "')";
        if (axis.name().empty())
            fail("mesh axis " + std::to_string(a) + " has no name");
        if (std::find(names.begin(), names.end(), axis.name()) != names.end())
            fail("mesh axis name '" + axis.name() + "' is used twice");
        names.push_back(axis.name());
        if (axis.size() < 1 || axis.size() > kMaxMeshDevices)
            fail(where + " has size " + std::to_string(axis.size()) + "; sizes are 1 to " +
                 std::to_string(kMaxMeshDevices));
        devices *= axis.size();
        if (devices > kMaxMeshDevices)
            fail("the mesh has more than " + std::to_string(kMaxMeshDevices) + " devices");
    }
    checkWorkloadFields(in.workload(), fileName);
    if (!in.origin().empty() && !planOriginFromName(in.origin()))
        fail("origin is '" + in.origin() + "', not expert, search, edit or import");
    if (!in.implementations().empty() && !trainingStackFromName(in.implementations()))
        fail("implementations is '" + in.implementations() + "', not pytorch, megatron, torchtitan or any");
    if (in.has_cost()) {
        const pb::CostSummary& c = in.cost();
        const std::pair<const char*, double> fields[] = {
            {"step_seconds", c.step_seconds()},       {"compute_seconds", c.compute_seconds()},
            {"communication_seconds", c.communication_seconds()}, {"memory_bytes", c.memory_bytes()},
            {"hbm_bytes", c.hbm_bytes()}};
        for (const auto& [name, value] : fields) {
            if (!std::isfinite(value) || value < 0)
                fail(std::string("cost.") + name + " is " + std::to_string(value) + ", not a number >= 0");
        }
    }
}

PipelineLayout readPipeline(const pb::Plan& in, const std::string& fileName, std::size_t blockCount)
{
    PipelineLayout layout;
    if (!in.has_pipeline())
        return layout;
    const pb::Pipeline& p = in.pipeline();
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::InvalidPlan, fileName, "pipeline: " + what); };
    if (p.stages() < 0 || p.stages() > kMaxMeshDevices || p.virtual_stages() < 0 || p.virtual_stages() > kMaxMeshDevices)
        fail("stages " + std::to_string(p.stages()) + " and virtual_stages " + std::to_string(p.virtual_stages()) +
             " must be 1 to " + std::to_string(kMaxMeshDevices));
    layout.stages = std::max(1, p.stages());
    layout.virtualStages = std::max(1, p.virtual_stages());
    if (!p.schedule().empty()) {
        const auto schedule = pipelineScheduleFromName(p.schedule());
        if (!schedule)
            fail("schedule '" + p.schedule() + "' is not gpipe, 1f1b or interleaved");
        layout.schedule = *schedule;
    }
    for (const std::int64_t start : p.chunk_starts()) {
        if (start < 0)
            fail("a chunk start is negative");
        layout.chunkStarts.push_back(static_cast<std::size_t>(start));
    }
    try {
        (void)chunkStarts(layout, blockCount);
    } catch (const Error& error) {
        fail(error.message());
    }
    return layout;
}

std::string firstFew(const std::vector<std::string>& names)
{
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i)
        text += (i ? ", '" : "'") + names[i] + "'";
    if (names.size() > 3)
        text += " and " + std::to_string(names.size() - 3) + " more";
    return text;
}

// Refuses the first key that tapestry.planfile has no field for (protobuf's own error
// says "Cannot find field"), naming where it is and the field it most likely means, or
// the fields there are, and a bool field holding anything but true or false.
void checkKeys(const JsonValue& value, const google::protobuf::Descriptor& message, const std::string& path,
               const std::string& fileName)
{
    if (!value.isObject())
        return;  // the wrong kind of value: protobuf's parser says so
    std::vector<std::string> names;
    for (int f = 0; f < message.field_count(); ++f)
        names.push_back(message.field(f)->name());
    const std::string prefix = path.empty() ? std::string() : path + ".";
    for (const auto& [key, member] : value.asObject()) {
        // protobuf's JSON mapping takes a field's name and its lowerCamelCase JSON name.
        const google::protobuf::FieldDescriptor* field = nullptr;
        for (int f = 0; f < message.field_count() && !field; ++f) {
            if (message.field(f)->name() == key || message.field(f)->json_name() == key)
                field = message.field(f);
        }
        if (!field) {
            std::string text = prefix + key + " is not a plan field";
            if (const std::optional<std::string> meant = nearestName(key, names)) {
                text += ": did you mean " + prefix + *meant + "?";
            } else {
                text += " (" + (path.empty() ? std::string("a plan") : path) + " has ";
                for (std::size_t i = 0; i < names.size(); ++i)
                    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
                text += ")";
            }
            throw Error(ErrorCode::InvalidPlan, fileName, text);
        }
        // protobuf's parser takes a string for a bool without a word.
        if (field->type() == google::protobuf::FieldDescriptor::TYPE_BOOL && !field->is_repeated() && !member.isBool())
            throw Error(ErrorCode::InvalidPlan, fileName, prefix + key + " is not true or false");
        if (field->message_type() == nullptr)
            continue;
        if (!field->is_repeated()) {
            checkKeys(member, *field->message_type(), prefix + key, fileName);
        } else if (member.isArray()) {
            for (std::size_t i = 0; i < member.asArray().size(); ++i)
                checkKeys(member.asArray()[i], *field->message_type(), prefix + key + "[" + std::to_string(i) + "]",
                          fileName);
        }
    }
}

void writeWorkload(const Workload& w, pb::Workload& out)
{
    // 0 is "not set" in memory and absent in the file.
    if (w.batch > 0)
        out.set_batch(w.batch);
    if (w.sequence > 0)
        out.set_sequence(w.sequence);
    out.set_compute_type(std::string(dataTypeName(w.computeType)));
    out.set_optimizer(optimizerName(w.optimizer));
    out.set_zero_stage(w.zeroStage);
    if (w.microBatch > 0)
        out.set_micro_batch(w.microBatch);
    out.set_recompute(recomputationName(w.recompute));
    out.set_overlap_off(!w.overlap);
    out.set_attention(attentionKernelName(w.attention));
    if (w.zeroImplementation != ZeroImplementation::Fsdp)
        out.set_zero_implementation(zeroImplementationName(w.zeroImplementation));
    if (w.zeroReplicas != 1)
        out.set_zero_replicas(w.zeroReplicas);
    if (w.gradientReduceType != DataType::Float32)
        out.set_gradient_reduce_type(std::string(dataTypeName(w.gradientReduceType)));
    if (w.selective != SelectiveRecomputation::AttentionCore)
        out.set_selective_recomputation(selectiveRecomputationName(w.selective));
    if (w.checkpointReplay != CheckpointReplay::WholeBlock)
        out.set_checkpoint_replay(checkpointReplayName(w.checkpointReplay));
    if (w.savedActivations != SavedActivations::Fused)
        out.set_saved_activations(savedActivationsName(w.savedActivations));
    if (w.optimizerStep != OptimizerStep::Fused)
        out.set_optimizer_step(optimizerStepName(w.optimizerStep));
    if (w.gradientLifetime != GradientLifetime::Persistent)
        out.set_gradient_lifetime(gradientLifetimeName(w.gradientLifetime));
    if (w.gradientClipping != GradientClipping::None)
        out.set_gradient_clipping(gradientClippingName(w.gradientClipping));
    if (w.fp8 != Fp8Recipe::None)
        out.set_fp8_recipe(fp8RecipeName(w.fp8));
    if (w.fp8Parameters)
        out.set_fp8_parameters(true);
    if (w.fp8Implementation != Fp8Implementation::TransformerEngine)
        out.set_fp8_implementation(fp8ImplementationName(w.fp8Implementation));
    if (w.keyValueHeads != KeyValueHeads::AsKernel)
        out.set_key_value_heads(keyValueHeadsName(w.keyValueHeads));
    out.set_fp32_main_gradients(w.fp32MainGradients);
    out.set_pipeline_send_overlap(w.pipelineSendOverlap);
    out.set_capacity_factor(w.capacityFactor);
}

// The value named `text` by `fromName`, or `absent` for an empty name; throws
// Error(InvalidPlan, fileName, ...) naming `key` and the `accepted` names otherwise.
template <typename Value, typename FromName>
Value namedValue(const std::string& text, FromName fromName, Value absent, const std::string& fileName,
                 const char* key, const char* accepted)
{
    if (text.empty())
        return absent;
    if (const std::optional<Value> named = fromName(text))
        return *named;
    throw Error(ErrorCode::InvalidPlan, fileName,
                std::string("workload.") + key + " is '" + text + "', not " + accepted);
}

// The workload `w` says (checkWorkloadFields first); throws Error(InvalidPlan, fileName,
// ...) for a name Tapestry does not price.
Workload readWorkload(const pb::Workload& w, const std::string& fileName)
{
    Workload workload;
    workload.batch = w.batch();
    workload.sequence = w.sequence();
    workload.optimizer =
        w.optimizer() == "sgd" ? OptimizerKind::SgdMomentum : OptimizerKind::AdamMixedPrecision;
    for (const DataType type : {DataType::BFloat16, DataType::Float16, DataType::Float32}) {
        if (w.compute_type() == dataTypeName(type))
            workload.computeType = type;
    }
    workload.zeroStage = w.zero_stage() != 0 ? w.zero_stage() : w.zero1() ? 1 : 0;
    if (workload.zeroStage < 0 || workload.zeroStage > 3)
        throw Error(ErrorCode::InvalidPlan, fileName, "workload.zero_stage is " + std::to_string(w.zero_stage()) + ", not 0 to 3");
    workload.microBatch = w.micro_batch();
    workload.recompute = namedValue(w.recompute(), recomputationFromName, Recomputation::None, fileName, "recompute",
                                    "none, selective or full");
    workload.overlap = !w.overlap_off();
    if (!w.attention().empty()) {
        const std::optional<AttentionKernel> kernel = attentionKernelFromName(w.attention(), AttentionNameReader::PlanFile);
        if (!kernel)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "workload.attention " + attentionKernelRefusal(w.attention(), AttentionNameReader::PlanFile));
        workload.attention = *kernel;
    }
    workload.fp32MainGradients = w.fp32_main_gradients();
    workload.zeroImplementation = namedValue(w.zero_implementation(), zeroImplementationFromName,
                                             ZeroImplementation::Fsdp, fileName, "zero_implementation",
                                             "fsdp, fsdp2, deepspeed or megatron-fsdp");
    workload.zeroReplicas = w.has_zero_replicas() ? w.zero_replicas() : 1;
    workload.gradientReduceType = DataType::Float32;
    if (!w.gradient_reduce_type().empty()) {
        const auto named = std::find_if(std::begin(kReduceTypes), std::end(kReduceTypes), [&](DataType type) {
            return w.gradient_reduce_type() == dataTypeName(type);
        });
        if (named == std::end(kReduceTypes))
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "workload.gradient_reduce_type is '" + w.gradient_reduce_type() +
                            "', not float32, bfloat16 or float16");
        workload.gradientReduceType = *named;
    }
    workload.selective = namedValue(w.selective_recomputation(), selectiveRecomputationFromName,
                                    SelectiveRecomputation::AttentionCore, fileName, "selective_recomputation",
                                    "attention-core or every-other-matmul");
    workload.checkpointReplay = namedValue(w.checkpoint_replay(), checkpointReplayFromName, CheckpointReplay::WholeBlock,
                                           fileName, "checkpoint_replay", "whole-block or stops-early");
    workload.savedActivations = namedValue(w.saved_activations(), savedActivationsFromName, SavedActivations::Fused,
                                           fileName, "saved_activations", "fused or eager");
    workload.optimizerStep = namedValue(w.optimizer_step(), optimizerStepFromName, OptimizerStep::Fused, fileName,
                                        "optimizer_step", "fused, master-copies or fused-remainders");
    workload.gradientLifetime = namedValue(w.gradient_lifetime(), gradientLifetimeFromName, GradientLifetime::Persistent,
                                           fileName, "gradient_lifetime",
                                           "persistent, freed-between-steps or zeroed-each-step");
    workload.capacityFactor = w.has_capacity_factor() ? w.capacity_factor() : 1.0;
    workload.pipelineSendOverlap = w.pipeline_send_overlap();
    workload.gradientClipping =
        namedValue(w.gradient_clipping(), gradientClippingFromName,
                   w.gradient_norm_clipping() ? GradientClipping::AboveLimit : GradientClipping::None, fileName,
                   "gradient_clipping", "none, above-limit or every-step");
    workload.fp8 = namedValue(w.fp8_recipe(), fp8RecipeFromName, Fp8Recipe::None, fileName, "fp8_recipe",
                              "none, per-tensor or mxfp8");
    workload.fp8Parameters = w.fp8_parameters();
    workload.fp8Implementation = namedValue(w.fp8_implementation(), fp8ImplementationFromName,
                                            Fp8Implementation::TransformerEngine, fileName, "fp8_implementation",
                                            "transformer-engine, torchao or torchao-float8-tp");
    workload.keyValueHeads = namedValue(w.key_value_heads(), keyValueHeadsFromName, KeyValueHeads::AsKernel, fileName,
                                        "key_value_heads", "as-kernel, grouped or repeated");
    return workload;
}

// Plan files are indented for people to read; a workload stored in a history column is one line.
std::string messageJson(const google::protobuf::Message& message, bool indented, const std::string& what)
{
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = indented;
    options.preserve_proto_field_names = true;
    std::string json;
    const auto status = google::protobuf::util::MessageToJsonString(message, &json, options);
    if (!status.ok())
        throw Error(ErrorCode::InvalidPlan, {}, "cannot write the " + what + " as JSON: " + status.ToString());
    return json;
}

}  // namespace

std::string planToJson(const PlanDocument& document, const CoarseGraph& coarse, const FamilyTable& families)
{
    const Plan& plan = document.plan;
    validatePlan(plan, coarse);
    pb::Plan out;
    out.set_schema_version(kPlanSchemaVersion);
    out.set_name(plan.name);
    out.set_origin(planOriginName(plan.origin));
    out.set_parent(plan.parent);
    out.set_model_fingerprint(document.modelFingerprint);
    out.set_cluster(document.clusterName);
    for (const MeshAxis& axis : plan.mesh) {
        pb::MeshAxis* a = out.add_mesh();
        a->set_name(axis.name);
        a->set_size(axis.size);
    }
    writeWorkload(document.workload, *out.mutable_workload());
    if (document.implementations != TrainingStack::Any)
        out.set_implementations(trainingStackName(document.implementations));

    std::vector<bool> written(coarse.nodes.size(), false);
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;  // covered by its parent's representative
        pb::FamilyStrategy* entry = out.add_families();
        entry->set_family(family.name);
        const BlockInstance& representative = family.representative();
        for (const CoarseNodeId id : representative.nodes)
            writeSplits(*entry->add_nodes(), relativeName(coarse.node(id).name, representative.scope), plan.strategy(id));
        for (const BlockInstance& instance : family.instances) {
            for (std::size_t p = 0; p < instance.nodes.size(); ++p) {
                const CoarseNodeId id = instance.nodes[p];
                written[id.index()] = plan.strategy(id) == plan.strategy(representative.nodes[p]);
            }
        }
    }
    for (const CoarseNode& node : coarse.nodes) {
        if (!written[node.id.index()])
            writeSplits(*out.add_nodes(), node.name, plan.strategy(node.id));
    }
    for (const std::string& pin : plan.pins)
        out.add_pins(pin);
    if (plan.pipeline.active()) {
        pb::Pipeline* pipeline = out.mutable_pipeline();
        pipeline->set_stages(plan.pipeline.stages);
        pipeline->set_virtual_stages(plan.pipeline.virtualStages);
        pipeline->set_schedule(pipelineScheduleName(plan.pipeline.schedule));
        for (const std::size_t start : chunkStarts(plan.pipeline, modelBlocks(families).size()))
            pipeline->add_chunk_starts(static_cast<std::int64_t>(start));
    }
    if (document.cost) {
        pb::CostSummary* cost = out.mutable_cost();
        cost->set_step_seconds(document.cost->stepSeconds);
        cost->set_compute_seconds(document.cost->computeSeconds);
        cost->set_communication_seconds(document.cost->communicationSeconds);
        cost->set_memory_bytes(document.cost->memoryBytes);
        cost->set_hbm_bytes(document.cost->hbmBytes);
    }
    return messageJson(out, true, "plan");
}

PlanDocument planFromJson(std::string_view json, const std::string& fileName, const CoarseGraph& coarse,
                          const FamilyTable& families)
{
    // Our own reader first: its syntax errors name the line and column, and its keys the
    // field a misspelt one means.
    JsonValue tree;
    try {
        tree = parseJson(json, fileName);
    } catch (const Error& error) {
        throw Error(ErrorCode::InvalidPlan, fileName, error.message());
    }
    checkKeys(tree, *pb::Plan::descriptor(), {}, fileName);
    pb::Plan in;
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &in, options);
    if (!status.ok())
        throw Error(ErrorCode::InvalidPlan, fileName, "is not a Tapestry plan: " + std::string(status.message()));
    if (in.schema_version() < 1 || in.schema_version() > kPlanSchemaVersion)
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "has plan schema version " + std::to_string(in.schema_version()) + "; this Tapestry reads version " +
                        std::to_string(kPlanSchemaVersion));
    checkFields(in, fileName);

    PlanDocument document;
    Plan& plan = document.plan;
    plan.name = in.name();
    plan.origin = planOriginFromName(in.origin()).value_or(PlanOrigin::Import);
    plan.parent = in.parent();
    plan.pins.assign(in.pins().begin(), in.pins().end());
    for (const pb::MeshAxis& axis : in.mesh())
        plan.mesh.push_back({axis.name(), axis.size()});
    document.modelFingerprint = in.model_fingerprint();
    document.clusterName = in.cluster();
    document.workload = readWorkload(in.workload(), fileName);
    document.implementations = trainingStackFromName(in.implementations()).value_or(TrainingStack::Any);
    if (in.has_cost()) {
        const pb::CostSummary& c = in.cost();
        document.cost = PlanCostSummary{c.step_seconds(), c.compute_seconds(), c.communication_seconds(),
                                        c.memory_bytes(), c.hbm_bytes()};
    }

    const std::size_t axes = plan.mesh.size();
    std::map<std::string, CoarseNodeId> byName;
    for (const CoarseNode& node : coarse.nodes)
        byName.emplace(node.name, node.id);
    std::vector<std::optional<NodeStrategy>> resolved(coarse.nodes.size());
    std::vector<std::string> unknown;

    for (const pb::FamilyStrategy& entry : in.families()) {
        const Family* family = nullptr;
        for (const Family& candidate : families.families) {
            if (candidate.name == entry.family() && !candidate.parent.isValid())
                family = &candidate;
        }
        if (!family)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "names the family '" + entry.family() + "', which this model does not have");
        std::map<std::string, std::size_t> position;
        const BlockInstance& representative = family->representative();
        for (std::size_t p = 0; p < representative.nodes.size(); ++p)
            position.emplace(relativeName(coarse.node(representative.nodes[p]).name, representative.scope), p);
        for (const pb::NodeStrategy& node : entry.nodes()) {
            const auto it = position.find(node.node());
            if (it == position.end()) {
                unknown.push_back(entry.family() + ": " + node.node());
                continue;
            }
            const NodeStrategy strategy = readSplits(node, axes, fileName);
            for (const BlockInstance& instance : family->instances)
                resolved[instance.nodes[it->second].index()] = strategy;
        }
    }
    for (const pb::NodeStrategy& node : in.nodes()) {
        const auto it = byName.find(node.node());
        if (it == byName.end()) {
            unknown.push_back(node.node());
            continue;
        }
        resolved[it->second.index()] = readSplits(node, axes, fileName);
    }
    if (!unknown.empty())
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "names " + std::to_string(unknown.size()) + " node(s) this model does not have: " + firstFew(unknown));
    std::vector<std::string> missing;
    for (const CoarseNode& node : coarse.nodes) {
        if (!resolved[node.id.index()])
            missing.push_back(node.name);
    }
    if (!missing.empty())
        throw Error(ErrorCode::InvalidPlan, fileName,
                    "leaves " + std::to_string(missing.size()) + " node(s) of this model without a strategy: " +
                        firstFew(missing));
    for (const auto& strategy : resolved)
        plan.strategies.push_back(*strategy);
    plan.pipeline = readPipeline(in, fileName, modelBlocks(families).size());
    // What the file says without the model's and the mesh's sizes (commands check the rest).
    WorkloadDegrees degrees;
    degrees.pipelineStages = plan.pipeline.stages;
    degrees.virtualStages = plan.pipeline.virtualStages;
    checkWorkload(document.workload, degrees, planFileFieldNames(), fileName, ErrorCode::InvalidPlan);
    try {
        validatePlan(plan, coarse);
    } catch (Error& error) {
        throw Error(ErrorCode::InvalidPlan, fileName, error.message());
    }
    return document;
}

std::string workloadToJson(const Workload& workload)
{
    pb::Workload out;
    writeWorkload(workload, out);
    return messageJson(out, false, "workload");
}

Workload workloadFromJson(std::string_view json, const std::string& fileName)
{
    JsonValue tree;
    try {
        tree = parseJson(json, fileName);
    } catch (const Error& error) {
        throw Error(ErrorCode::InvalidPlan, fileName, error.message());
    }
    checkKeys(tree, *pb::Workload::descriptor(), "workload", fileName);
    pb::Workload in;
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &in, options);
    if (!status.ok())
        throw Error(ErrorCode::InvalidPlan, fileName, "is not a Tapestry workload: " + std::string(status.message()));
    checkWorkloadFields(in, fileName);
    return readWorkload(in, fileName);
}

PlanDocument loadPlanFile(const std::filesystem::path& file, const CoarseGraph& coarse, const FamilyTable& families)
{
    return planFromJson(readTextFile(file), file.string(), coarse, families);
}

void savePlanFile(const std::filesystem::path& file, const PlanDocument& document, const CoarseGraph& coarse,
                  const FamilyTable& families)
{
    writeFileAtomically(file, planToJson(document, coarse, families));
}

}  // namespace tapestry
