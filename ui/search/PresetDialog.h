#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QSpinBox;

namespace tapestry {

// File > New from Preset: picks a reference architecture (core/synth's presets) and
// optionally another layer count.
class PresetDialog : public QDialog {
    Q_OBJECT

public:
    explicit PresetDialog(QWidget* parent = nullptr);

    [[nodiscard]] QString preset() const;
    // 0 keeps the preset's own depth.
    [[nodiscard]] int layers() const;

private:
    void describeChoice();

    QComboBox* presets_;
    QSpinBox* layers_;
    QLabel* description_;
};

}  // namespace tapestry
