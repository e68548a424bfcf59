#pragma once

#include "jobs/JobTracker.h"
#include "cost/WorkloadCheck.h"
#include "search/SearchSetup.h"
#include "calibration/ClusterCalibration.h"
#include "cluster/LinkClass.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace tapestry {

// The cluster, mesh and workload a search runs on: a cluster preset (resources/clusters)
// whose numbers can be edited (the edits apply to a copy of the preset), among them the
// shares of the peak that GEMMs and attention reach, the mesh factorization or "auto"
// (every one), the workload, the memory headroom kept free of the HBM, and nccl-tests
// logs imported as bus bandwidth curves that replace the formula for their collective
// and link class, and the efficiency figures calibrated to measured runs; a cluster
// file can be opened in place of a preset and the edited cluster saved as one.
struct FoldedModel;

class ClusterPanel : public QWidget {
    Q_OBJECT

public:
    // The one rule of the GUI and the CLI: the limit is the GPU's whole memory unless the
    // user keeps some free (allocator fragmentation, the CUDA context and NCCL's buffers
    // take a few GB that no cost model counts) or gives a limit (--memory-limit).
    static constexpr double kDefaultHeadroomPercent = 0;

    explicit ClusterPanel(QWidget* parent = nullptr);

    // The preset with the user's edits and curves, the chosen mesh, workload and limits.
    [[nodiscard]] SearchSetup setup() const;
    // The workload fields as the panel labels them: checkWorkload's errors name these.
    [[nodiscard]] static WorkloadFieldNames workloadFieldNames();

    // Select by name (an empty shape: auto); false when there is no such preset or mesh.
    bool choosePreset(const QString& name);
    // The preset's nodes, repeated to `nodes` machines (the meshes offered follow).
    void setNodes(int nodes);
    bool chooseMesh(const std::vector<int>& shape);
    // A mesh as the command line writes it ("2x8", "pp=8,dp=2,tp=8", "auto"); empty: auto.
    bool chooseMeshText(const QString& text);
    void setBatch(int batch);
    void setSequence(int sequence);
    // Sequences per data-parallel rank and micro-step; 0: the search chooses.
    void setMicroBatch(int sequences);
    void setTimeLimit(double seconds);

    // Keeps the panel's choices (cluster and its edits, mesh, workload, limits) for the
    // model at `modelPath` in the settings; recallFor() puts them back when that model
    // is opened again and returns false, changing nothing, for a model never searched.
    void rememberFor(const QString& modelPath) const;
    bool recallFor(const QString& modelPath);

    // Offers the targets that train `model` (stackModelNotes): a stack that does not (a
    // convolutional network on Megatron-LM) stays listed, disabled, its reason in the
    // tooltip; a chosen target that does not train the model gives way to the first stack
    // that does, and targetReplaced says why.
    void offerTargetsFor(const FoldedModel& model);

    // Reads an nccl-tests log and adds its curve for the collective its file name names
    // (all_reduce_perf...) on `link`. Shows and returns false on failure.
    bool importNcclLog(const QString& path, LinkClass link);

    // Fits the cluster's efficiency figures to the measured runs in `path` (validate's
    // format, core/calibration) in the background; when done, the cluster takes the
    // fitted figures and the panel says what was fitted and each run's leave-one-out
    // error before and after; a refusal is shown as a problem.
    void calibrateToRuns(const QString& path);
    // A cluster file (resources/clusters' format, as calibrate writes it) as the cluster,
    // offered in the preset list from then on. Shows and returns false on failure.
    bool openClusterFile(const QString& path);
    // Writes the cluster with the panel's edits as a cluster file named after the file.
    // Shows and returns false on failure.
    bool saveClusterFile(const QString& path);

    [[nodiscard]] QComboBox* presetBox() const { return preset_; }

signals:
    // The workload's precision was chosen (and once at construction's end, bf16).
    void precisionChanged(tapestry::DataType type);
    // A calibration ended: `fitted` false when it was refused or failed.
    void calibrationFinished(bool fitted);
    // offerTargetsFor chose another target: `reason` says why, for the status bar.
    void targetReplaced(const QString& reason);

public:
    [[nodiscard]] QComboBox* meshBox() const { return mesh_; }

private:
    void loadPreset(const QString& name);
    // The limit is the HBM less the headroom; setting the limit sets the headroom.
    void limitFromHeadroom();
    void headroomFromLimit();
    void refillMeshes();
    // The link rows say node or NVLink domain, whichever the fast link joins.
    void nameLinks();
    void chooseNcclLog();
    void chooseRunsToCalibrate();
    void chooseClusterFile();
    void chooseClusterFileToSave();
    void showCluster();
    void showCurves();
    void showCalibration(const CalibrationResult& result, const QString& runsFile);
    void showProblem(const QString& text);
    [[nodiscard]] Cluster editedCluster() const;

    Cluster presetCluster_;
    JobTracker calibration_;
    std::map<std::pair<CollectiveKind, LinkClass>, std::pair<BusBandwidthCurve, QString>> curves_;

    QComboBox* preset_ = nullptr;
    QLabel* presetNote_ = nullptr;
    QSpinBox* nodes_ = nullptr;
    QSpinBox* gpusPerNode_ = nullptr;
    QSpinBox* nvlinkDomain_ = nullptr;  // 0: one node
    QLabel* intraLabel_ = nullptr;
    QLabel* interLabel_ = nullptr;
    QDoubleSpinBox* peakTflops_ = nullptr;
    QDoubleSpinBox* gemmEfficiency_ = nullptr;
    QDoubleSpinBox* attentionEfficiency_ = nullptr;
    QDoubleSpinBox* hbmGb_ = nullptr;
    QDoubleSpinBox* intraGbps_ = nullptr;
    QDoubleSpinBox* interGbps_ = nullptr;
    QComboBox* mesh_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* sequence_ = nullptr;
    QSpinBox* microBatch_ = nullptr;
    QComboBox* precision_ = nullptr;
    QCheckBox* fp8Parameters_ = nullptr;  // enabled with an FP8 precision only
    QComboBox* optimizer_ = nullptr;
    QComboBox* recompute_ = nullptr;
    QComboBox* zeroStage_ = nullptr;
    QCheckBox* overlap_ = nullptr;
    QComboBox* attention_ = nullptr;
    QDoubleSpinBox* capacityFactor_ = nullptr;
    QDoubleSpinBox* memoryHeadroom_ = nullptr;
    QDoubleSpinBox* memoryLimitGb_ = nullptr;
    QDoubleSpinBox* timeLimit_ = nullptr;
    QComboBox* target_ = nullptr;
    QComboBox* ncclLink_ = nullptr;
    QListWidget* curveList_ = nullptr;
    QPushButton* calibrate_ = nullptr;
    QLabel* calibrationSummary_ = nullptr;
    QLabel* problem_ = nullptr;
};

}  // namespace tapestry
