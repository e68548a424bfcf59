#pragma once

#include "graphview/GraphViewKind.h"
#include "plans/PlanExport.h"

#include <QDialog>

#include <memory>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace tapestry {

struct FoldedModel;

// Exports the open plan (or, without one, the graph) to any format of PlanExport with
// a file chooser. The file is written in the background (an ONNX export re-reads the
// model), the dialog waiting without blocking the window; it closes when the file is
// written. The last folder and format are remembered. The proposed file name says the
// format; an existing file is replaced only once the user confirms. A failed export keeps
// the dialog open with the reason, naming the file.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // `document` is the plan to export (none: only the graph pictures are offered);
    // `view` is the graph view the pictures draw; `cluster`, the GPUs the plan runs on
    // (none: not known), prices what a stack's file runs when its stack does not run the
    // plan as is, as `tapestry-cli export --cluster` does.
    ExportDialog(std::shared_ptr<const FoldedModel> folded, std::optional<PlanDocument> document, GraphViewKind view,
                 std::optional<Cluster> cluster, QWidget* parent = nullptr);

    [[nodiscard]] ExportFormat format() const;
    void setFormat(ExportFormat format);
    [[nodiscard]] QString path() const;
    void setPath(const QString& path);
    [[nodiscard]] QLabel* problemLabel() const { return problem_; }

    [[nodiscard]] bool isExporting() const { return exporting_; }

signals:
    // After each export started by accept(): whether the file was written (if not, the
    // reason is on screen).
    void exportFinished(bool written);
    // A file was written: what and where (and, for a stack that does not run the plan as
    // is, what the file runs instead), for the status bar (translated).
    void written(const QString& message);

public slots:
    // Starts writing the file (after a confirmation when it exists); the dialog closes
    // when it is written.
    void accept() override;
    // Ignored while a file is being written (it would be left half done).
    void reject() override;

private:
    void chooseFile();
    void askToReplace();
    void write();
    void onFormatChanged();
    void setExporting(bool exporting);
    // `nearest`: what the written file runs instead of the plan, for the status bar.
    void finishExport(const QString& problem, const QString& nearest = {});

    std::shared_ptr<const FoldedModel> folded_;
    std::optional<PlanDocument> document_;
    GraphViewKind view_;
    std::optional<Cluster> cluster_;
    QComboBox* format_ = nullptr;
    QLineEdit* path_ = nullptr;
    QLabel* problem_ = nullptr;
    QWidget* inputs_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
    bool exporting_ = false;
    QString replaceConfirmed_;  // an existing file the user agreed to replace
};

}  // namespace tapestry
