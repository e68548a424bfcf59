#pragma once

#include "GraphViewKind.h"
#include "PlanExport.h"

#include <QDialog>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;

namespace tapestry {

struct FoldedModel;

// Exports the open plan (or, without one, the graph) to any format of PlanExport with
// a file chooser. The last folder and format are remembered. A failed export keeps the
// dialog open with the reason, naming the file.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // `document` is the plan to export (none: only the graph pictures are offered);
    // `view` is the graph view the pictures draw.
    ExportDialog(std::shared_ptr<const FoldedModel> folded, std::optional<PlanDocument> document, GraphViewKind view,
                 QWidget* parent = nullptr);

    [[nodiscard]] ExportFormat format() const;
    void setFormat(ExportFormat format);
    [[nodiscard]] QString path() const;
    void setPath(const QString& path);
    [[nodiscard]] QLabel* problemLabel() const { return problem_; }

    // Writes the file; false (and the reason on screen) when it could not.
    bool exportNow();

public slots:
    void accept() override;

private:
    void chooseFile();
    void onFormatChanged();

    std::shared_ptr<const FoldedModel> folded_;
    std::optional<PlanDocument> document_;
    GraphViewKind view_;
    QComboBox* format_ = nullptr;
    QLineEdit* path_ = nullptr;
    QLabel* problem_ = nullptr;
};

}  // namespace tapestry
