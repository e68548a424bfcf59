#include "plans/ExportDialog.h"

#include "jobs/BackgroundTask.h"
#include "common/ErrorText.h"
#include "jobs/JobOutcome.h"
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
#include <QMessageBox>
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
                           GraphViewKind view, std::optional<Cluster> cluster, QWidget* parent)
    : QDialog(parent), folded_(std::move(folded)), document_(std::move(document)), view_(view),
      cluster_(std::move(cluster))
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export"));
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("exportFormat"));
    for (const ExportFormat format : PlanExport::formats()) {
        if (document_ || !exportNeedsPlan(format))
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
    inputs_ = new QWidget(this);
    auto* form = new QFormLayout(inputs_);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Plan:"), new QLabel(document_ ? QString::fromStdString(document_->plan.name)
                                                   : tr("none open: only the graph can be exported"),
                                         this));
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("File:"), fileRow);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(inputs_);
    layout->addWidget(problem_);
    layout->addWidget(buttons_);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::chooseFile);
    connect(buttons_, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
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
    const QString base = path().isEmpty() ? PlanExport::defaultBaseName(folded_.get(), document_ ? &*document_ : nullptr)
                                          : PlanExport::baseName(QFileInfo(path()).fileName());
    const QString dir = path().isEmpty() ? folder : QFileInfo(path()).absolutePath();
    path_->setText(QDir(dir).filePath(base + PlanExport::fileEnding(format())));
    problem_->clear();
}

void ExportDialog::chooseFile()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export To"), path(), PlanExport::filter(format()));
    if (file.isEmpty())
        return;
    path_->setText(file);
    replaceConfirmed_ = file;  // the file chooser asked already

}

void ExportDialog::accept()
{
    if (exporting_)
        return;
    if (path().isEmpty()) {
        problem_->setText(tr("Choose a file to export to."));
        emit exportFinished(false);
        return;
    }
    if (QFileInfo::exists(path()) && path() != replaceConfirmed_) {
        askToReplace();
        return;
    }
    write();
}

void ExportDialog::askToReplace()
{
    // Not exec(): the window keeps painting, and tests answer the box like a user.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Replace File?"),
                                tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path())),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("replaceFileBox"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->button(QMessageBox::Yes)->setText(tr("Replace"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, asked = path()](int answer) {
        if (answer != QMessageBox::Yes || path() != asked) {
            emit exportFinished(false);
            return;
        }
        replaceConfirmed_ = asked;
        write();
    });
    box->open();
}

void ExportDialog::write()
{
    using Outcome = JobOutcome<std::optional<ExportedPlanPrice>>;
    setExporting(true);
    const QString shownPath = QDir::toNativeSeparators(path());
    // The job holds its own copies: the dialog may be gone before it ends.
    runInBackground(
        this,
        [format = format(), folded = folded_, document = document_.value_or(PlanDocument{}), view = view_,
         cluster = cluster_, file = std::filesystem::path(path().toStdString())] {
            return Outcome::catching([&] { return PlanExport::write(format, folded, document, view, cluster, file); });
        },
        [this, shownPath, format = format()](const Outcome& outcome) {
            if (outcome.value)
                finishExport({}, *outcome.value ? PlanExport::nearestPlanText(format, **outcome.value) : QString());
            else if (outcome.error)
                finishExport(tr("Could not export to %1: %2 %3")
                                 .arg(shownPath, ErrorText::problem(*outcome.error), ErrorText::detail(*outcome.error)));
            else
                finishExport(tr("Could not export to %1: %2").arg(shownPath, outcome.unexpected));
        });
}

void ExportDialog::reject()
{
    if (!exporting_)
        QDialog::reject();
}

void ExportDialog::setExporting(bool exporting)
{
    exporting_ = exporting;
    inputs_->setEnabled(!exporting);
    buttons_->setEnabled(!exporting);
    // Progress in the ordinary text colour, problems in red.
    problem_->setStyleSheet(exporting ? QString() : QStringLiteral("color: #b71c1c"));
    problem_->setText(exporting ? tr("Exporting…") : QString());
}

void ExportDialog::finishExport(const QString& problem, const QString& nearest)
{
    setExporting(false);
    if (!problem.isEmpty()) {
        problem_->setText(problem);
        emit exportFinished(false);
        return;
    }
    QSettings settings;
    settings.setValue(folderKey(), QFileInfo(path()).absolutePath());
    settings.setValue(formatKey(), static_cast<int>(format()));
    const QString wrote = tr("Wrote %1 to %2.").arg(PlanExport::name(format()), QDir::toNativeSeparators(path()));
    emit written(nearest.isEmpty() ? wrote : wrote + u' ' + nearest);
    emit exportFinished(true);
    QDialog::accept();
}

}  // namespace tapestry
