#include "ExportDialog.h"

#include "ErrorText.h"
#include "base/Error.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace tapestry {

namespace {

QString folderKey()
{
    return QStringLiteral("export/folder");
}

QString formatKey()
{
    return QStringLiteral("export/format");
}

}  // namespace

ExportDialog::ExportDialog(std::shared_ptr<const FoldedModel> folded, std::optional<PlanDocument> document,
                           GraphViewKind view, QWidget* parent)
    : QDialog(parent), folded_(std::move(folded)), document_(std::move(document)), view_(view)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export"));
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("exportFormat"));
    for (const ExportFormat format : PlanExport::formats()) {
        if (document_ || !PlanExport::needsPlan(format))
            format_->addItem(PlanExport::name(format), static_cast<int>(format));
    }
    path_ = new QLineEdit(this);
    path_->setObjectName(QStringLiteral("exportPath"));
    path_->setMinimumWidth(420);
    auto* browse = new QPushButton(tr("Browse…"), this);
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("exportProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #b71c1c"));

    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(path_, 1);
    fileRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Plan:"), new QLabel(document_ ? QString::fromStdString(document_->plan.name)
                                                   : tr("none open: only the graph can be exported"),
                                         this));
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("File:"), fileRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::chooseFile);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::onFormatChanged);

    const QSettings settings;
    const int last = format_->findData(settings.value(formatKey(), 0).toInt());
    format_->setCurrentIndex(std::max(last, 0));
    onFormatChanged();
}

ExportFormat ExportDialog::format() const
{
    return static_cast<ExportFormat>(format_->currentData().toInt());
}

void ExportDialog::setFormat(ExportFormat format)
{
    format_->setCurrentIndex(format_->findData(static_cast<int>(format)));
}

QString ExportDialog::path() const
{
    return path_->text().trimmed();
}

void ExportDialog::setPath(const QString& path)
{
    path_->setText(path);
}

void ExportDialog::onFormatChanged()
{
    // Propose a file in the last folder named after the plan, with this format's suffix.
    const QSettings settings;
    const QString folder = settings.value(folderKey(), QDir::homePath()).toString();
    const QString base = path().isEmpty()
                             ? (document_ ? QString::fromStdString(document_->plan.name).replace(u'/', u'-')
                                          : QStringLiteral("graph"))
                             : QFileInfo(path()).completeBaseName();
    const QString dir = path().isEmpty() ? folder : QFileInfo(path()).absolutePath();
    path_->setText(QDir(dir).filePath(base + u'.' + PlanExport::suffix(format())));
    problem_->clear();
}

void ExportDialog::chooseFile()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export To"), path(), PlanExport::filter(format()));
    if (!file.isEmpty())
        path_->setText(file);
}

bool ExportDialog::exportNow()
{
    if (path().isEmpty()) {
        problem_->setText(tr("Choose a file to export to."));
        return false;
    }
    try {
        PlanExport::write(format(), *folded_, document_.value_or(PlanDocument{}), view_,
                          std::filesystem::path(path().toStdString()));
    } catch (const Error& error) {
        problem_->setText(tr("Could not export to %1: %2 %3")
                              .arg(QDir::toNativeSeparators(path()), ErrorText::problem(error), ErrorText::detail(error)));
        return false;
    } catch (const std::exception& error) {
        problem_->setText(tr("Could not export to %1: %2")
                              .arg(QDir::toNativeSeparators(path()), QString::fromLocal8Bit(error.what())));
        return false;
    }
    QSettings settings;
    settings.setValue(folderKey(), QFileInfo(path()).absolutePath());
    settings.setValue(formatKey(), static_cast<int>(format()));
    return true;
}

void ExportDialog::accept()
{
    if (exportNow())
        QDialog::accept();
}

}  // namespace tapestry
