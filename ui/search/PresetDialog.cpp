#include "search/PresetDialog.h"

#include "synth/SynthPresets.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tapestry {

PresetDialog::PresetDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("New Model from Preset"));
    presets_ = new QComboBox(this);
    presets_->setObjectName(QStringLiteral("presetChoice"));
    for (const SynthPreset& preset : synthPresets())
        presets_->addItem(QString::fromUtf8(preset.name.data(), static_cast<qsizetype>(preset.name.size())));
    layers_ = new QSpinBox(this);
    layers_->setObjectName(QStringLiteral("presetLayers"));
    layers_->setRange(0, 1000);
    layers_->setSpecialValueText(tr("as published"));
    description_ = new QLabel(this);
    description_->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Architecture:"), presets_);
    form->addRow(tr("Layers:"), layers_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(presets_, &QComboBox::currentIndexChanged, this, &PresetDialog::describeChoice);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(description_);
    layout->addWidget(new QLabel(tr("The model is written with its shapes only (no weights) and opened like a file."), this));
    layout->addWidget(buttons);
    const int gpt3 = presets_->findText(QStringLiteral("gpt3-175b"));
    presets_->setCurrentIndex(gpt3 >= 0 ? gpt3 : 0);
    describeChoice();
}

QString PresetDialog::preset() const
{
    return presets_->currentText();
}

int PresetDialog::layers() const
{
    return layers_->value();
}

void PresetDialog::describeChoice()
{
    const SynthPreset* preset = findSynthPreset(presets_->currentText().toStdString());
    if (!preset)
        return;
    description_->setText(tr("%1: %2 layers, width %3.")
                              .arg(QString::fromUtf8(preset->description.data(),
                                                     static_cast<qsizetype>(preset->description.size())))
                              .arg(preset->spec.layers)
                              .arg(preset->spec.hidden));
}

}  // namespace tapestry
