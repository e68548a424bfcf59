#include "search/ClusterPanel.h"

#include "common/ErrorText.h"
#include "common/ResourceLocator.h"
#include "common/WheelGuard.h"
#include "jobs/BackgroundTask.h"
#include "jobs/JobOutcome.h"
#include "plans/PlanOverlay.h"
#include "plans/PlanSummary.h"
#include "target/StackRules.h"
#include "target/TrainingStack.h"
#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/TextFile.h"
#include "cluster/ClusterFile.h"
#include "cluster/MeshText.h"
#include "cluster/NcclTestsLog.h"
#include "cluster/PipelineStages.h"
#include "fold/FoldedModel.h"

#include <QCheckBox>
#include <QCollator>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tapestry {

namespace {

QDoubleSpinBox* doubleBox(QWidget* parent, double max, int decimals, const QString& suffix)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0.01, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setAlignment(Qt::AlignRight);
    return box;
}

QString shapeText(const std::vector<int>& shape)
{
    QStringList parts;
    for (const int size : shape)
        parts << QString::number(size);
    return parts.join(QStringLiteral(" × "));
}

// "pp 8 × dp 2 × tp 8"
QString axesText(const std::vector<MeshAxis>& axes)
{
    QStringList parts;
    for (const MeshAxis& axis : axes)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(axis.name)).arg(axis.size);
    return parts.join(QStringLiteral(" × "));
}

// What selective recomputation a search for `stack` prices (stackSelectiveRecomputation).
QString selectiveLabel(TrainingStack stack)
{
    return stackSelectiveRecomputation(stack) == SelectiveRecomputation::EveryOtherMatmul
               ? ClusterPanel::tr("Selective (every other matmul, torchtitan's)")
               : ClusterPanel::tr("Selective (attention core)");
}

}  // namespace

ClusterPanel::ClusterPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("clusterPanel"));
    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("clusterPreset"));
    // In numeric order: dgx-h100x2 before dgx-h100x16.
    QStringList presets;
    for (const std::string& name : clusterPresetNames(ResourceLocator::clusterPresetDirectory()))
        presets << QString::fromStdString(name);
    QCollator numeric;
    numeric.setNumericMode(true);
    std::sort(presets.begin(), presets.end(), numeric);
    preset_->addItems(presets);
    presetNote_ = new QLabel(this);
    presetNote_->setWordWrap(true);
    presetNote_->setForegroundRole(QPalette::PlaceholderText);
    nodes_ = new QSpinBox(this);
    nodes_->setObjectName(QStringLiteral("clusterNodes"));
    nodes_->setRange(1, 4096);
    gpusPerNode_ = new QSpinBox(this);
    gpusPerNode_->setRange(1, 64);
    // GPUs that one NVLink fabric joins: a node (0), or a rack of nodes (GB200 NVL72).
    nvlinkDomain_ = new QSpinBox(this);
    nvlinkDomain_->setObjectName(QStringLiteral("nvlinkDomain"));
    nvlinkDomain_->setRange(0, 1 << 16);
    nvlinkDomain_->setSpecialValueText(tr("one node"));
    nvlinkDomain_->setSuffix(tr(" GPUs"));
    nvlinkDomain_->setToolTip(tr("GPUs joined by one NVLink fabric, a whole number of nodes: one node on DGX and "
                                 "HGX machines, a rack of 72 GPUs (18 nodes of 4) on GB200 NVL72. Mesh axes inside "
                                 "a domain use the fast link."));
    peakTflops_ = doubleBox(this, 100000, 0, tr(" TFLOP/s"));
    hbmGb_ = doubleBox(this, 10000, 0, tr(" GB"));
    hbmGb_->setObjectName(QStringLiteral("clusterHbm"));
    intraGbps_ = doubleBox(this, 100000, 1, tr(" GB/s"));
    intraGbps_->setObjectName(QStringLiteral("intraBandwidth"));
    interGbps_ = doubleBox(this, 100000, 1, tr(" GB/s"));
    interGbps_->setObjectName(QStringLiteral("interBandwidth"));
    peakTflops_->setToolTip(tr("Dense peak of one GPU in the training dtype"));
    gemmEfficiency_ = doubleBox(this, 100, 1, tr(" % of peak"));
    gemmEfficiency_->setObjectName(QStringLiteral("gemmEfficiency"));
    gemmEfficiency_->setRange(1, 100);
    gemmEfficiency_->setToolTip(tr("Share of the peak that large matrix multiplications (cuBLAS GEMMs) reach: every "
                                   "compute time rests on it. Measure it with a GEMM benchmark at your shapes."));
    attentionEfficiency_ = doubleBox(this, 100, 1, tr(" % of peak at 16k tokens"));
    attentionEfficiency_->setObjectName(QStringLiteral("attentionEfficiency"));
    attentionEfficiency_->setRange(1, 100);
    attentionEfficiency_->setToolTip(
        tr("Share of the peak that FlashAttention-2's forward pass reaches at 16k tokens, head dim 128, without a "
           "causal mask. Each attention call runs at the share the kernel's published curve gives it: shorter "
           "sequences, a causal mask and the backward pass reach less, cuDNN's kernel more."));

    auto* openFile = new QPushButton(tr("Open Cluster File…"), this);
    openFile->setObjectName(QStringLiteral("openClusterFile"));
    openFile->setToolTip(tr("A cluster described in a JSON file, as resources/clusters and calibration write them"));
    auto* clusterBox = new QGroupBox(tr("Cluster"), this);
    auto* clusterForm = new QFormLayout(clusterBox);
    clusterForm->addRow(tr("Preset:"), preset_);
    clusterForm->addRow(openFile);
    clusterForm->addRow(presetNote_);
    clusterForm->addRow(tr("Nodes:"), nodes_);
    clusterForm->addRow(tr("GPUs per node:"), gpusPerNode_);
    clusterForm->addRow(tr("NVLink domain:"), nvlinkDomain_);
    clusterForm->addRow(tr("Peak:"), peakTflops_);
    clusterForm->addRow(tr("GEMM efficiency:"), gemmEfficiency_);
    clusterForm->addRow(tr("Attention efficiency:"), attentionEfficiency_);
    clusterForm->addRow(tr("HBM:"), hbmGb_);
    intraLabel_ = new QLabel(this);
    interLabel_ = new QLabel(this);
    clusterForm->addRow(intraLabel_, intraGbps_);
    clusterForm->addRow(interLabel_, interGbps_);
    nameLinks();

    mesh_ = new QComboBox(this);
    mesh_->setObjectName(QStringLiteral("meshShape"));
    mesh_->setToolTip(tr("Devices are numbered row-major over the mesh; the last axis is the fastest and stays "
                         "inside a node first."));
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("batchSize"));
    batch_->setRange(0, 1 << 20);
    batch_->setSpecialValueText(tr("from the model"));
    batch_->setSuffix(tr(" sequences"));
    sequence_ = new QSpinBox(this);
    sequence_->setObjectName(QStringLiteral("sequenceLength"));
    sequence_->setRange(0, 1 << 22);
    sequence_->setSpecialValueText(tr("from the model"));
    sequence_->setSuffix(tr(" tokens"));
    microBatch_ = new QSpinBox(this);
    microBatch_->setObjectName(QStringLiteral("microBatch"));
    microBatch_->setRange(0, 1 << 20);
    microBatch_->setSpecialValueText(tr("Auto (the search chooses)"));
    microBatch_->setSuffix(tr(" sequences"));
    microBatch_->setToolTip(tr("Sequences per data-parallel rank and micro-step: gradients accumulate over the "
                               "micro-steps and are synchronized once per step. Auto: the search chooses (the "
                               "whole batch where a plan fits with it, else the largest micro-batch that fits; 1 to "
                               "8 sequences on a pipeline); a plan priced outside a search takes the whole batch."));
    precision_ = new QComboBox(this);
    precision_->setObjectName(QStringLiteral("precision"));
    // Each item holds the precision as the command line names it (setPrecision).
    precision_->addItem(tr("bf16 (mixed precision)"), QStringLiteral("bf16"));
    precision_->addItem(tr("fp16 (mixed precision)"), QStringLiteral("fp16"));
    precision_->addItem(tr("fp8 (bf16, per-tensor FP8 GEMMs)"), QStringLiteral("fp8"));
    precision_->addItem(tr("mxfp8 (bf16, MXFP8 block-scaled GEMMs)"), QStringLiteral("mxfp8"));
    precision_->setToolTip(tr("The type of activations, weights and gradients; the optimizer keeps fp32 master "
                              "weights either way."));
    fp8Parameters_ = new QCheckBox(tr("FP8 weights without a 16-bit copy"), this);
    fp8Parameters_->setObjectName(QStringLiteral("fp8Parameters"));
    fp8Parameters_->setEnabled(false);
    fp8Parameters_->setToolTip(tr("With fp8 or mxfp8: the FP8 layers keep their weights in FP8 only, as Transformer "
                                  "Engine's fp8_model_init does (Megatron-LM's --fp8-param-gather, NeMo's fp8_params), "
                                  "instead of beside their 16-bit weights; ZeRO 3 gathers them in FP8."));
    optimizer_ = new QComboBox(this);
    optimizer_->addItem(tr("Adam (fp32 master, m, v)"), static_cast<int>(OptimizerKind::AdamMixedPrecision));
    optimizer_->addItem(tr("SGD with momentum"), static_cast<int>(OptimizerKind::SgdMomentum));
    // Auto (no data) lets the search choose per mesh.
    recompute_ = new QComboBox(this);
    recompute_->setObjectName(QStringLiteral("recomputation"));
    recompute_->addItem(tr("Auto (the search chooses)"));
    recompute_->addItem(tr("None"), static_cast<int>(Recomputation::None));
    recompute_->addItem(selectiveLabel(kDefaultTrainingStack), static_cast<int>(Recomputation::Selective));
    recompute_->addItem(tr("Full (each block)"), static_cast<int>(Recomputation::Full));
    recompute_->setToolTip(tr("Activations recomputed in the backward pass instead of kept: less memory for more "
                              "compute. Selective as the target runs it: Megatron-LM recomputes attention's core "
                              "(nothing to recompute with fused attention), torchtitan keeps every other matmul's "
                              "output and recomputes the rest."));
    zeroStage_ = new QComboBox(this);
    zeroStage_->setObjectName(QStringLiteral("zeroStage"));
    zeroStage_->addItem(tr("Auto (the search chooses)"));
    zeroStage_->addItem(tr("0 (nothing sharded)"), 0);
    zeroStage_->addItem(tr("1 (optimizer states)"), 1);
    zeroStage_->addItem(tr("2 (and gradients)"), 2);
    zeroStage_->addItem(tr("3 (and parameters, FSDP)"), 3);
    zeroStage_->setToolTip(tr("What ZeRO shards over the data-parallel axes: optimizer states, then gradients, "
                              "then parameters."));
    overlap_ = new QCheckBox(tr("Overlap data-parallel communication"), this);
    overlap_->setObjectName(QStringLiteral("overlap"));
    overlap_->setChecked(Workload{}.overlap);
    overlap_->setToolTip(tr("Gradient reduction runs under the backward pass and FSDP gathers under the previous "
                            "block, as far as that compute can hide them."));
    attention_ = new QComboBox(this);
    attention_->setObjectName(QStringLiteral("attentionKernel"));
    attention_->addItem(tr("Fused (FlashAttention-2)"), static_cast<int>(AttentionKernel::FlashAttention2));
    attention_->addItem(tr("Fused (cuDNN)"), static_cast<int>(AttentionKernel::Cudnn));
    attention_->addItem(tr("Fused (Triton, llm-foundry)"), static_cast<int>(AttentionKernel::Triton));
    attention_->addItem(tr("Fused (FlashAttention 1.x)"), static_cast<int>(AttentionKernel::FlashAttention1));
    attention_->addItem(tr("Unfused"), static_cast<int>(AttentionKernel::Unfused));
    attention_->setToolTip(tr("A fused kernel never writes the sequence × sequence scores to memory; unfused "
                              "kernels keep them for the backward pass. cuDNN's kernels (Transformer Engine's, what "
                              "Megatron-LM runs) are faster than FlashAttention-2's on Hopper and later GPUs."));
    capacityFactor_ = doubleBox(this, kMaxCapacityFactor, 2, QString());
    capacityFactor_->setObjectName(QStringLiteral("capacityFactor"));
    capacityFactor_->setValue(Workload{}.capacityFactor);
    capacityFactor_->setToolTip(tr("Mixture-of-experts routing: each expert computes up to this many times its even "
                                   "share (top-k / experts) of the tokens. No effect on models without experts."));
    memoryHeadroom_ = doubleBox(this, 90, 1, tr(" % of HBM"));
    memoryHeadroom_->setObjectName(QStringLiteral("memoryHeadroom"));
    memoryHeadroom_->setRange(0, 90);
    memoryHeadroom_->setValue(kDefaultHeadroomPercent);
    memoryHeadroom_->setToolTip(tr("Kept free of each GPU's memory for what the cost model does not count: the "
                                   "caching allocator's fragmentation, the CUDA context and NCCL's buffers; 5 to 10 % "
                                   "is a common allowance. 0, the default as in the CLI, lets plans fill the HBM."));
    memoryLimitGb_ = doubleBox(this, 10000, 1, tr(" GB"));
    memoryLimitGb_->setObjectName(QStringLiteral("memoryLimit"));
    memoryLimitGb_->setToolTip(tr("Per device: the HBM less the headroom; a plan fits when its peak stays below it."));
    timeLimit_ = doubleBox(this, 3600, 0, tr(" s"));
    timeLimit_->setObjectName(QStringLiteral("timeLimit"));
    timeLimit_->setValue(SearchOptions{}.timeLimitSeconds);
    timeLimit_->setToolTip(tr("Time limit of each integer program the search solves"));
    // Each item holds the stack as --target names it.
    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("target"));
    for (const TrainingStack stack : allTrainingStacks())
        target_->addItem(PlanSummary::stackName(stack), QString::fromLatin1(trainingStackName(stack)));
    target_->setCurrentIndex(target_->findData(QString::fromLatin1(trainingStackName(kDefaultTrainingStack))));
    target_->setToolTip(tr("The training stack the plans are searched for: its plans run on it as is and export "
                           "to it exactly. Any: every strategy the cost model prices, for study; not runnable as is."));

    preset_->setToolTip(tr("A cluster from resources/clusters: GPU, node count and links; edits below apply to a copy."));
    nodes_->setToolTip(tr("Machines in the cluster; GPUs in one node talk over the fast intra-node links."));
    gpusPerNode_->setToolTip(tr("GPUs in each node, joined by NVLink or PCIe."));
    hbmGb_->setToolTip(tr("Memory of one GPU; a plan fits when its peak per device stays below the limit."));
    batch_->setToolTip(tr("Sequences per optimizer step over all data-parallel ranks; 0 takes the model's own."));
    sequence_->setToolTip(tr("Tokens per sequence; 0 takes the model's own."));
    optimizer_->setToolTip(tr("The optimizer whose states the plan keeps per parameter: Adam keeps two, SGD one."));
    auto* workloadBox = new QGroupBox(tr("Mesh and workload"), this);
    auto* workloadForm = new QFormLayout(workloadBox);
    workloadForm->addRow(tr("Target:"), target_);
    workloadForm->addRow(tr("Mesh:"), mesh_);
    workloadForm->addRow(tr("Global batch:"), batch_);
    workloadForm->addRow(tr("Sequence:"), sequence_);
    workloadForm->addRow(tr("Micro-batch:"), microBatch_);
    workloadForm->addRow(tr("Precision:"), precision_);
    workloadForm->addRow(fp8Parameters_);
    workloadForm->addRow(tr("Optimizer:"), optimizer_);
    workloadForm->addRow(tr("Recomputation:"), recompute_);
    workloadForm->addRow(tr("ZeRO stage:"), zeroStage_);
    workloadForm->addRow(tr("Attention:"), attention_);
    workloadForm->addRow(tr("Capacity factor:"), capacityFactor_);
    workloadForm->addRow(overlap_);
    workloadForm->addRow(tr("Memory headroom:"), memoryHeadroom_);
    workloadForm->addRow(tr("Memory limit:"), memoryLimitGb_);
    workloadForm->addRow(tr("Solver time limit:"), timeLimit_);

    ncclLink_ = new QComboBox(this);
    ncclLink_->addItem(tr("intra-node"), static_cast<int>(LinkClass::Intra));
    ncclLink_->addItem(tr("inter-node"), static_cast<int>(LinkClass::Inter));
    ncclLink_->setToolTip(tr("The links the measured run used"));
    auto* import = new QPushButton(tr("Import nccl-tests Log…"), this);
    import->setObjectName(QStringLiteral("importNcclLog"));
    curveList_ = new QListWidget(this);
    curveList_->setObjectName(QStringLiteral("calibrationCurves"));
    curveList_->setMaximumHeight(90);
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("clusterProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c62828"));
    problem_->hide();
    calibrate_ = new QPushButton(tr("Calibrate to Measured Runs…"), this);
    calibrate_->setObjectName(QStringLiteral("calibrateToRuns"));
    calibrate_->setToolTip(tr("Fit the GEMM and attention efficiencies and the link bandwidths to training runs you "
                              "measured on this cluster (tapestry-cli validate's format); figures the runs cannot "
                              "pin down are kept as they are."));
    auto* save = new QPushButton(tr("Save Cluster File…"), this);
    save->setObjectName(QStringLiteral("saveClusterFile"));
    save->setToolTip(tr("Write this cluster with its edits as a JSON file that tapestry-cli --cluster and this panel "
                        "read"));
    calibrationSummary_ = new QLabel(this);
    calibrationSummary_->setObjectName(QStringLiteral("calibrationSummary"));
    calibrationSummary_->setWordWrap(true);
    calibrationSummary_->hide();
    auto* calibrationBox = new QGroupBox(tr("Calibration"), this);
    auto* calibrationLayout = new QVBoxLayout(calibrationBox);
    calibrationLayout->addWidget(ncclLink_);
    calibrationLayout->addWidget(import);
    calibrationLayout->addWidget(curveList_);
    calibrationLayout->addWidget(calibrate_);
    calibrationLayout->addWidget(calibrationSummary_);
    calibrationLayout->addWidget(save);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(clusterBox);
    layout->addWidget(workloadBox);
    layout->addWidget(calibrationBox);
    layout->addWidget(problem_);
    layout->addStretch(1);
    showCurves();
    // On a narrow dock (a laptop, German labels) the labels go above their fields and the
    // choices are cut rather than widening the panel; the open list shows them whole.
    for (QFormLayout* form : {clusterForm, workloadForm})
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (QComboBox* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }

    // The panel scrolls on a small screen: the wheel moves it, not the setting under the pointer.
    WheelGuard::protect(this);

    connect(preset_, &QComboBox::currentTextChanged, this, &ClusterPanel::loadPreset);
    connect(nodes_, &QSpinBox::valueChanged, this, &ClusterPanel::refillMeshes);
    connect(gpusPerNode_, &QSpinBox::valueChanged, this, &ClusterPanel::refillMeshes);
    connect(gpusPerNode_, &QSpinBox::valueChanged, nvlinkDomain_, &QSpinBox::setSingleStep);
    connect(nvlinkDomain_, &QSpinBox::valueChanged, this, [this] {
        nameLinks();
        refillMeshes();
    });
    connect(hbmGb_, &QDoubleSpinBox::valueChanged, this, &ClusterPanel::limitFromHeadroom);
    connect(memoryHeadroom_, &QDoubleSpinBox::valueChanged, this, &ClusterPanel::limitFromHeadroom);
    connect(memoryLimitGb_, &QDoubleSpinBox::valueChanged, this, &ClusterPanel::headroomFromLimit);
    connect(import, &QPushButton::clicked, this, &ClusterPanel::chooseNcclLog);
    connect(calibrate_, &QPushButton::clicked, this, &ClusterPanel::chooseRunsToCalibrate);
    connect(save, &QPushButton::clicked, this, &ClusterPanel::chooseClusterFileToSave);
    connect(openFile, &QPushButton::clicked, this, &ClusterPanel::chooseClusterFile);
    connect(precision_, &QComboBox::currentIndexChanged, this, [this] {
        fp8Parameters_->setEnabled(setup().workload.fp8 != Fp8Recipe::None);
        emit precisionChanged(setup().workload.computeType);
    });
    connect(target_, &QComboBox::currentIndexChanged, this, [this] {
        recompute_->setItemText(recompute_->findData(static_cast<int>(Recomputation::Selective)),
                                selectiveLabel(trainingStackFromName(target_->currentData().toString().toStdString())
                                                   .value_or(kDefaultTrainingStack)));
    });

    const int preferred = preset_->findText(QStringLiteral("dgx-h100x2"));
    if (preset_->count() > 0)
        preset_->setCurrentIndex(std::max(preferred, 0));
    loadPreset(preset_->currentText());
}

void ClusterPanel::loadPreset(const QString& name)
{
    if (name.isEmpty())
        return;
    // Items of cluster files hold their path; presets none.
    const QString file = preset_->currentData().toString();
    try {
        presetCluster_ = file.isEmpty() ? loadClusterPreset(ResourceLocator::clusterPresetDirectory(), name.toStdString())
                                        : loadClusterFile(file.toStdString());
    } catch (const Error& error) {
        problem_->setText(ErrorText::problem(error) + u' ' + ErrorText::detail(error));
        problem_->show();
        return;
    }
    problem_->hide();
    calibrationSummary_->hide();
    showCluster();
}

void ClusterPanel::showCluster()
{
    presetNote_->setText(QString::fromStdString(presetCluster_.gpu.name));
    {
        const QSignalBlocker a(nodes_);
        const QSignalBlocker b(gpusPerNode_);
        const QSignalBlocker c(nvlinkDomain_);
        nodes_->setValue(presetCluster_.nodes);
        gpusPerNode_->setValue(presetCluster_.gpusPerNode);
        nvlinkDomain_->setSingleStep(presetCluster_.gpusPerNode);
        nvlinkDomain_->setValue(presetCluster_.gpusPerNvlinkDomain > presetCluster_.gpusPerNode
                                    ? presetCluster_.gpusPerNvlinkDomain
                                    : 0);
    }
    nameLinks();
    peakTflops_->setValue(presetCluster_.gpu.peakFlopsPerSecond / 1e12);
    gemmEfficiency_->setValue(presetCluster_.gpu.achievableFraction * 100);
    attentionEfficiency_->setValue(presetCluster_.gpu.attentionFraction * 100);
    hbmGb_->setValue(static_cast<double>(presetCluster_.gpu.hbmBytes) / 1e9);
    limitFromHeadroom();
    intraGbps_->setValue(presetCluster_.intraNode.bytesPerSecond / 1e9);
    interGbps_->setValue(presetCluster_.interNode.bytesPerSecond / 1e9);
    refillMeshes();
    showCurves();
}

void ClusterPanel::nameLinks()
{
    // Beyond a node the fast link is the domain's fabric and the slow one joins domains.
    const bool rack = nvlinkDomain_->value() > gpusPerNode_->value();
    intraLabel_->setText(rack ? tr("In a domain:") : tr("Intra-node:"));
    interLabel_->setText(rack ? tr("Between domains:") : tr("Inter-node:"));
    intraGbps_->setToolTip(rack ? tr("Achievable bus bandwidth per GPU and direction inside an NVLink domain")
                                : tr("Achievable bus bandwidth per GPU and direction inside a node"));
    interGbps_->setToolTip(rack ? tr("Achievable bandwidth per GPU and direction between NVLink domains")
                                : tr("Achievable bandwidth per GPU and direction between nodes (one NIC per GPU)"));
}

void ClusterPanel::limitFromHeadroom()
{
    const QSignalBlocker blocker(memoryLimitGb_);
    memoryLimitGb_->setValue(hbmGb_->value() * (1 - memoryHeadroom_->value() / 100));
}

void ClusterPanel::headroomFromLimit()
{
    const QSignalBlocker blocker(memoryHeadroom_);
    memoryHeadroom_->setValue(std::max(0.0, (1 - memoryLimitGb_->value() / hbmGb_->value()) * 100));
}

void ClusterPanel::refillMeshes()
{
    const QString previous = mesh_->currentText();
    mesh_->clear();
    mesh_->addItem(tr("auto (try every shape)"));
    // Each item holds its mesh as the command line writes it ("2x8", "pp=8,dp=2,tp=8").
    const Cluster cluster = editedCluster();
    for (const std::vector<int>& shape : meshShapes(cluster))
        mesh_->addItem(shapeText(shape), QString::fromStdString(meshText(namedMeshAxes(shape))));
    for (const std::vector<MeshAxis>& axes : pipelineMeshes(cluster, cluster.deviceCount()))
        mesh_->addItem(axesText(axes), QString::fromStdString(meshText(axes)));
    // By default data parallel over the nodes and tensor parallel inside each (16 x 8 on
    // 16 nodes of 8), where tensor parallelism's traffic stays on the fast links.
    const int again = mesh_->findText(previous);
    const int perNode = mesh_->findData(QString::fromStdString(
        meshText(namedMeshAxes({cluster.deviceCount() / cluster.gpusPerNode, cluster.gpusPerNode}))));
    mesh_->setCurrentIndex(again >= 0 ? again : perNode >= 0 ? perNode : std::min(2, mesh_->count() - 1));
}

Cluster ClusterPanel::editedCluster() const
{
    Cluster cluster = nodes_->value() == presetCluster_.nodes ? presetCluster_ : presetCluster_.withNodes(nodes_->value());
    cluster.gpusPerNode = gpusPerNode_->value();
    cluster.gpusPerNvlinkDomain = nvlinkDomain_->value();
    cluster.gpu.peakFlopsPerSecond = peakTflops_->value() * 1e12;
    cluster.gpu.achievableFraction = gemmEfficiency_->value() / 100;
    cluster.gpu.attentionFraction = attentionEfficiency_->value() / 100;
    cluster.gpu.hbmBytes = static_cast<std::uint64_t>(hbmGb_->value() * 1e9);
    cluster.intraNode.bytesPerSecond = intraGbps_->value() * 1e9;
    cluster.interNode.bytesPerSecond = interGbps_->value() * 1e9;
    for (const auto& [key, curve] : curves_)
        cluster.curves[key] = curve.first;
    return cluster;
}

SearchSetup ClusterPanel::setup() const
{
    SearchSetup setup;
    setup.cluster = editedCluster();
    const QString mesh = mesh_->currentData().toString();
    if (!mesh.isEmpty())
        setup.mesh = parseMeshText(mesh.toStdString());
    setup.workload.batch = batch_->value();
    setup.workload.sequence = sequence_->value();
    setup.workload.microBatch = microBatch_->value();
    (void)setPrecision(setup.workload, precision_->currentData().toString().toStdString());
    setup.workload.fp8Parameters = setup.workload.fp8 != Fp8Recipe::None && fp8Parameters_->isChecked();
    setup.workload.optimizer = static_cast<OptimizerKind>(optimizer_->currentData().toInt());
    setup.chooseRecomputation = !recompute_->currentData().isValid();
    if (!setup.chooseRecomputation)
        setup.workload.recompute = static_cast<Recomputation>(recompute_->currentData().toInt());
    setup.chooseZeroStage = !zeroStage_->currentData().isValid();
    if (!setup.chooseZeroStage)
        setup.workload.zeroStage = zeroStage_->currentData().toInt();
    setup.workload.overlap = overlap_->isChecked();
    setup.workload.attention = static_cast<AttentionKernel>(attention_->currentData().toInt());
    setup.workload.capacityFactor = capacityFactor_->value();
    // No headroom: the GPU's memory itself, exactly as the CLI without --memory-limit.
    if (memoryHeadroom_->value() > 0)
        setup.options.memoryLimitBytes = memoryLimitGb_->value() * 1e9;
    setup.options.timeLimitSeconds = timeLimit_->value();
    setup.options.stack = trainingStackFromName(target_->currentData().toString().toStdString()).value_or(kDefaultTrainingStack);
    return setup;
}

WorkloadFieldNames ClusterPanel::workloadFieldNames()
{
    WorkloadFieldNames names;
    names.batch = tr("Global batch").toStdString();
    names.sequence = tr("Sequence").toStdString();
    names.microBatch = tr("Micro-batch").toStdString();
    names.capacityFactor = tr("Capacity factor").toStdString();
    return names;
}

namespace {

QString choicesKey(const QString& modelPath)
{
    const QByteArray path = QFileInfo(modelPath).absoluteFilePath().toUtf8();
    return QStringLiteral("modelChoices/") +
           QString::fromLatin1(QCryptographicHash::hash(path, QCryptographicHash::Sha1).toHex());
}

// An item's data, or -1 for an item without (Auto).
int dataOf(const QComboBox* box)
{
    return box->currentData().isValid() ? box->currentData().toInt() : -1;
}

void chooseData(QComboBox* box, int data)
{
    const int index = data < 0 ? box->findData(QVariant()) : box->findData(data);
    if (index >= 0)
        box->setCurrentIndex(index);
}

}  // namespace

void ClusterPanel::rememberFor(const QString& modelPath) const
{
    const QVariantMap choices{
        {QStringLiteral("preset"), preset_->currentText()},
        {QStringLiteral("clusterFile"), preset_->currentData().toString()},
        {QStringLiteral("nodes"), nodes_->value()},
        {QStringLiteral("gpusPerNode"), gpusPerNode_->value()},
        {QStringLiteral("nvlinkDomain"), nvlinkDomain_->value()},
        {QStringLiteral("peakTflops"), peakTflops_->value()},
        {QStringLiteral("gemmEfficiency"), gemmEfficiency_->value()},
        {QStringLiteral("attentionEfficiency"), attentionEfficiency_->value()},
        {QStringLiteral("hbmGb"), hbmGb_->value()},
        {QStringLiteral("intraGbps"), intraGbps_->value()},
        {QStringLiteral("interGbps"), interGbps_->value()},
        {QStringLiteral("mesh"), mesh_->currentData().toString()},
        {QStringLiteral("batch"), batch_->value()},
        {QStringLiteral("sequence"), sequence_->value()},
        {QStringLiteral("microBatch"), microBatch_->value()},
        {QStringLiteral("precisionName"), precision_->currentData().toString()},
        {QStringLiteral("fp8Parameters"), fp8Parameters_->isChecked()},
        {QStringLiteral("target"), target_->currentData().toString()},
        {QStringLiteral("optimizer"), dataOf(optimizer_)},
        {QStringLiteral("recompute"), dataOf(recompute_)},
        {QStringLiteral("zeroStage"), dataOf(zeroStage_)},
        {QStringLiteral("overlap"), overlap_->isChecked()},
        {QStringLiteral("attention"), dataOf(attention_)},
        {QStringLiteral("capacityFactor"), capacityFactor_->value()},
        {QStringLiteral("memoryHeadroom"), memoryHeadroom_->value()},
        {QStringLiteral("timeLimit"), timeLimit_->value()},
    };
    QSettings().setValue(choicesKey(modelPath), choices);
}

bool ClusterPanel::recallFor(const QString& modelPath)
{
    const QVariantMap choices = QSettings().value(choicesKey(modelPath)).toMap();
    const QString clusterFile = choices.value(QStringLiteral("clusterFile")).toString();
    if (choices.isEmpty() || !(clusterFile.isEmpty() ? choosePreset(choices.value(QStringLiteral("preset")).toString())
                                                      : openClusterFile(clusterFile)))
        return false;
    // In this order: the preset resets the numbers, the cluster's size refills the meshes.
    nodes_->setValue(choices.value(QStringLiteral("nodes")).toInt());
    gpusPerNode_->setValue(choices.value(QStringLiteral("gpusPerNode")).toInt());
    if (choices.contains(QStringLiteral("nvlinkDomain")))
        nvlinkDomain_->setValue(choices.value(QStringLiteral("nvlinkDomain")).toInt());
    peakTflops_->setValue(choices.value(QStringLiteral("peakTflops")).toDouble());
    // Choices kept before the fields existed keep the preset's.
    if (choices.contains(QStringLiteral("gemmEfficiency")))
        gemmEfficiency_->setValue(choices.value(QStringLiteral("gemmEfficiency")).toDouble());
    if (choices.contains(QStringLiteral("attentionEfficiency")))
        attentionEfficiency_->setValue(choices.value(QStringLiteral("attentionEfficiency")).toDouble());
    hbmGb_->setValue(choices.value(QStringLiteral("hbmGb")).toDouble());
    intraGbps_->setValue(choices.value(QStringLiteral("intraGbps")).toDouble());
    interGbps_->setValue(choices.value(QStringLiteral("interGbps")).toDouble());
    chooseMeshText(choices.value(QStringLiteral("mesh")).toString());
    batch_->setValue(choices.value(QStringLiteral("batch")).toInt());
    sequence_->setValue(choices.value(QStringLiteral("sequence")).toInt());
    microBatch_->setValue(choices.value(QStringLiteral("microBatch")).toInt());
    // Kept by name; choices kept before fp8 hold the DataType (fp16 or bf16).
    const QString precision = choices.contains(QStringLiteral("precisionName"))
                                  ? choices.value(QStringLiteral("precisionName")).toString()
                              : choices.value(QStringLiteral("precision")).toInt() == static_cast<int>(DataType::Float16)
                                  ? QStringLiteral("fp16")
                                  : QStringLiteral("bf16");
    if (const int index = precision_->findData(precision); index >= 0)
        precision_->setCurrentIndex(index);
    fp8Parameters_->setChecked(choices.value(QStringLiteral("fp8Parameters")).toBool());
    // Choices kept before the target existed take the default.
    const int target = target_->findData(choices.value(QStringLiteral("target")).toString());
    target_->setCurrentIndex(target >= 0 ? target : target_->findData(QString::fromLatin1(trainingStackName(kDefaultTrainingStack))));
    chooseData(optimizer_, choices.value(QStringLiteral("optimizer")).toInt());
    chooseData(recompute_, choices.value(QStringLiteral("recompute")).toInt());
    chooseData(zeroStage_, choices.value(QStringLiteral("zeroStage")).toInt());
    overlap_->setChecked(choices.value(QStringLiteral("overlap")).toBool());
    chooseData(attention_, choices.value(QStringLiteral("attention")).toInt());
    capacityFactor_->setValue(choices.value(QStringLiteral("capacityFactor"), Workload{}.capacityFactor).toDouble());
    if (choices.contains(QStringLiteral("memoryHeadroom")))
        memoryHeadroom_->setValue(choices.value(QStringLiteral("memoryHeadroom")).toDouble());
    else  // kept as a limit in GB before the headroom was
        memoryLimitGb_->setValue(choices.value(QStringLiteral("memoryLimitGb")).toDouble());
    timeLimit_->setValue(choices.value(QStringLiteral("timeLimit")).toDouble());
    return true;
}

bool ClusterPanel::choosePreset(const QString& name)
{
    const int index = preset_->findText(name);
    if (index < 0)
        return false;
    preset_->setCurrentIndex(index);
    return true;
}

bool ClusterPanel::chooseMesh(const std::vector<int>& shape)
{
    return chooseMeshText(shape.empty() ? QString() : QString::fromStdString(meshText(namedMeshAxes(shape))));
}

bool ClusterPanel::chooseMeshText(const QString& text)
{
    int index = 0;  // auto
    if (!text.isEmpty() && text != QLatin1String("auto")) {
        try {
            index = mesh_->findData(QString::fromStdString(meshText(parseMeshText(text.toStdString()))));
        } catch (const Error&) {
            return false;
        }
    }
    if (index < 0)
        return false;
    mesh_->setCurrentIndex(index);
    return true;
}

void ClusterPanel::setNodes(int nodes)
{
    nodes_->setValue(nodes);
}

void ClusterPanel::setMicroBatch(int sequences)
{
    microBatch_->setValue(sequences);
}

void ClusterPanel::setBatch(int batch)
{
    batch_->setValue(batch);
}

void ClusterPanel::setSequence(int sequence)
{
    sequence_->setValue(sequence);
}

void ClusterPanel::setTimeLimit(double seconds)
{
    timeLimit_->setValue(seconds);
}

void ClusterPanel::chooseNcclLog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import nccl-tests Log"), QDir::homePath(),
                                                      tr("nccl-tests logs (*.log *.txt);;All files (*)"));
    if (!path.isEmpty())
        importNcclLog(path, static_cast<LinkClass>(ncclLink_->currentData().toInt()));
}

void ClusterPanel::offerTargetsFor(const FoldedModel& model)
{
    auto* items = qobject_cast<QStandardItemModel*>(target_->model());
    std::vector<std::string> currentNotes;
    int firstRunning = -1;
    for (int i = 0; i < target_->count(); ++i) {
        const TrainingStack stack =
            trainingStackFromName(target_->itemData(i).toString().toStdString()).value_or(TrainingStack::Any);
        const std::vector<std::string> notes = stackModelNotes(stack, model);
        items->item(i)->setEnabled(notes.empty());
        items->item(i)->setToolTip(notes.empty() ? QString()
                                                 : tr("%1 does not train this model: %2")
                                                       .arg(PlanSummary::stackName(stack),
                                                            QString::fromStdString(notes.front())));
        if (i == target_->currentIndex())
            currentNotes = notes;
        if (notes.empty() && stack != TrainingStack::Any && firstRunning < 0)
            firstRunning = i;
    }
    if (currentNotes.empty() || firstRunning < 0)
        return;
    const QString replaced = target_->currentText();
    target_->setCurrentIndex(firstRunning);
    emit targetReplaced(tr("Target %1: %2 does not train this model (%3).")
                            .arg(target_->currentText(), replaced, QString::fromStdString(currentNotes.front())));
}

bool ClusterPanel::importNcclLog(const QString& path, LinkClass link)
{
    const QString fileName = QFileInfo(path).fileName();
    const std::optional<CollectiveKind> kind = collectiveFromNcclTestsName(fileName.toStdString());
    if (!kind) {
        problem_->setText(tr("%1 does not name its collective: expected all_reduce_perf, all_gather_perf, "
                             "reduce_scatter_perf or alltoall_perf in the file name.")
                              .arg(fileName));
        problem_->show();
        return false;
    }
    try {
        // A log is a few kilobytes: reading it here keeps the import simple and quick.
        const NcclTestsLog log = NcclTestsLog::load(path.toStdString());
        curves_[{*kind, link}] = {log.busBandwidthCurve(), fileName};
    } catch (const Error& error) {
        problem_->setText(tr("Could not import %1: %2 %3")
                              .arg(fileName, ErrorText::problem(error), ErrorText::detail(error)));
        problem_->show();
        return false;
    }
    problem_->hide();
    showCurves();
    return true;
}

void ClusterPanel::showCurves()
{
    curveList_->clear();
    std::map<std::pair<CollectiveKind, LinkClass>, std::pair<BusBandwidthCurve, QString>> shown;
    for (const auto& [key, curve] : presetCluster_.curves)
        shown[key] = {curve, tr("preset")};
    for (const auto& [key, curve] : curves_)
        shown[key] = curve;
    for (const auto& [key, curve] : shown) {
        const auto& points = curve.first.points();
        double peak = 0;
        for (const auto& point : points)
            peak = std::max(peak, point.busBytesPerSecond);
        curveList_->addItem(tr("%1, %2: %Ln point(s) up to %L3 GB/s (%4)", nullptr, static_cast<int>(points.size()))
                                .arg(PlanOverlay::collectiveName(key.first),
                                     key.second == LinkClass::Intra ? tr("intra-node") : tr("inter-node"))
                                .arg(peak / 1e9, 0, 'f', 1)
                                .arg(curve.second));
    }
    if (shown.empty())
        curveList_->addItem(tr("No measured curves: collectives use the alpha-beta formulas."));
}

void ClusterPanel::showProblem(const QString& text)
{
    problem_->setText(text);
    problem_->show();
}

void ClusterPanel::chooseClusterFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Cluster File"), QDir::homePath(),
                                                      tr("Cluster files (*.json);;All files (*)"));
    if (!path.isEmpty())
        openClusterFile(path);
}

bool ClusterPanel::openClusterFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    Cluster cluster;
    try {
        cluster = loadClusterFile(absolute.toStdString());
    } catch (const Error& error) {
        showProblem(tr("Could not open %1: %2 %3")
                        .arg(QFileInfo(path).fileName(), ErrorText::problem(error), ErrorText::detail(error)));
        return false;
    }
    int index = preset_->findData(absolute);
    if (index < 0) {
        preset_->addItem(tr("%1 (file %2)").arg(QString::fromStdString(cluster.name), QFileInfo(path).fileName()),
                         absolute);
        index = preset_->count() - 1;
    }
    if (index == preset_->currentIndex())
        loadPreset(preset_->currentText());
    else
        preset_->setCurrentIndex(index);
    return true;
}

void ClusterPanel::chooseClusterFileToSave()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Cluster File"), QDir::homePath(),
                                                      tr("Cluster files (*.json)"));
    if (!path.isEmpty())
        saveClusterFile(path);
}

bool ClusterPanel::saveClusterFile(const QString& path)
{
    Cluster cluster = editedCluster();
    // Named as the file is, as tapestry-cli calibrate names what it writes.
    cluster.name = QFileInfo(path).completeBaseName().toStdString();
    try {
        writeFileAtomically(path.toStdString(), clusterToJson(cluster));
    } catch (const Error& error) {
        showProblem(tr("Could not save %1: %2 %3")
                        .arg(QFileInfo(path).fileName(), ErrorText::problem(error), ErrorText::detail(error)));
        return false;
    }
    problem_->hide();
    return true;
}

void ClusterPanel::chooseRunsToCalibrate()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Calibrate to Measured Runs"), QDir::homePath(),
                                                      tr("Measured runs (*.json);;All files (*)"));
    if (!path.isEmpty())
        calibrateToRuns(path);
}

void ClusterPanel::calibrateToRuns(const QString& path)
{
    using Outcome = JobOutcome<CalibrationResult>;
    const JobTracker::Ticket ticket = calibration_.start();
    const QString fileName = QFileInfo(path).fileName();
    calibrate_->setEnabled(false);
    problem_->hide();
    calibrationSummary_->setText(tr("Fitting the figures to the runs of %1…").arg(fileName));
    calibrationSummary_->show();
    // The job holds its own copies; a panel closed meanwhile cancels it.
    runInBackground(
        this,
        [cluster = editedCluster(), file = path.toStdString(), cancelled = ticket.cancelled] {
            return Outcome::catching([&] {
                CalibrationRequest request;
                request.cancelled = [cancelled] { return cancelled->load(); };
                return calibrateCluster(cluster, parsePublishedRuns(readTextFile(file), file), file, request);
            });
        },
        [this, id = ticket.id, fileName](const Outcome& outcome) {
            if (!calibration_.finish(id))
                return;
            calibrate_->setEnabled(true);
            if (outcome.value && !outcome.value->cancelled) {
                showCalibration(*outcome.value, fileName);
                emit calibrationFinished(true);
                return;
            }
            calibrationSummary_->hide();
            if (outcome.error)
                showProblem(tr("Could not calibrate to %1: %2 %3")
                                .arg(fileName, ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error)));
            else if (!outcome.value)
                showProblem(tr("Could not calibrate to %1: %2").arg(fileName, outcome.unexpected));
            emit calibrationFinished(false);
        });
}

namespace {

QString figureLabel(CalibrationFigure figure)
{
    switch (figure) {
    case CalibrationFigure::Gemm: return ClusterPanel::tr("GEMM efficiency");
    case CalibrationFigure::Attention: return ClusterPanel::tr("attention efficiency");
    case CalibrationFigure::Fp8Gemm: return ClusterPanel::tr("FP8 GEMM efficiency");
    case CalibrationFigure::IntraNode: return ClusterPanel::tr("intra-node bandwidth");
    case CalibrationFigure::InterNode: return ClusterPanel::tr("inter-node bandwidth");
    }
    return {};
}

// A share of the peak in per cent, a bandwidth in GB/s.
QString figureText(CalibrationFigure figure, double value)
{
    if (figure == CalibrationFigure::IntraNode || figure == CalibrationFigure::InterNode)
        return ClusterPanel::tr("%L1 GB/s").arg(value / 1e9, 0, 'f', 1);
    return ClusterPanel::tr("%L1 %").arg(100 * value, 0, 'f', 1);
}

QString percentText(double share)
{
    return ClusterPanel::tr("%L1 %").arg(100 * share, 0, 'f', 1);
}

}  // namespace

void ClusterPanel::showCalibration(const CalibrationResult& result, const QString& runsFile)
{
    // The calibrated cluster replaces the preset's figures; choosing a preset again restores them.
    presetCluster_ = result.cluster;
    showCluster();
    QStringList fitted;
    for (const FittedFigure& figure : result.fitted)
        fitted << tr("%1 %2 → %3").arg(figureLabel(figure.figure), figureText(figure.figure, figure.before),
                                        figureText(figure.figure, figure.after));
    calibrationSummary_->setText(
        tr("Fitted to %1 runs of %2: %3. Step-time error of each run priced on the figures fitted to the others: "
           "median %4 → %5, max %6 → %7.")
            .arg(QString::number(result.before.priced), runsFile, fitted.join(QStringLiteral(", ")),
                 percentText(result.before.medianAbsoluteError),
                 percentText(result.leftOut.medianAbsoluteError), percentText(result.before.maximumAbsoluteError),
                 percentText(result.leftOut.maximumAbsoluteError)) +
        (result.readsPlainFlash ? u' ' + tr("Runs that say “flash” are read as FlashAttention 1.x; runs of "
                                            "FlashAttention-2 should say “flash2”.")
                                : QString()));
    // Why the other figures were kept, in the core's English like an error's detail.
    QStringList kept;
    for (const KeptFigure& figure : result.kept)
        kept << tr("%1 kept: %2").arg(figureLabel(figure.figure), QString::fromStdString(figure.reason));
    calibrationSummary_->setToolTip(kept.join(QLatin1Char('\n')));
    calibrationSummary_->show();
}

}  // namespace tapestry
