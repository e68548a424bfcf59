#include "model/ModelSummaryView.h"

#include "model/LoadedModel.h"
#include "model/OpHistogramModel.h"
#include "common/QuantityFormat.h"
#include "common/ShareBarDelegate.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <algorithm>

namespace tapestry {

namespace {

QString opsetText(const std::vector<OpsetImport>& opsets)
{
    QStringList parts;
    for (const OpsetImport& opset : opsets) {
        const QString domain = opset.domain.empty() ? QStringLiteral("ai.onnx")
                                                    : QString::fromStdString(opset.domain);
        parts << domain + u' ' + QString::number(opset.version);
    }
    return parts.join(QStringLiteral(", "));
}

void addValues(QTreeWidgetItem* group, const std::vector<ValueSummary>& values)
{
    for (const ValueSummary& value : values) {
        auto* item = new QTreeWidgetItem(group);
        item->setText(0, QString::fromStdString(value.name));
        const std::string_view dtype = dataTypeName(value.dtype);
        item->setText(1, QString::fromUtf8(dtype.data(), static_cast<qsizetype>(dtype.size())));
        item->setText(2, QString::fromStdString(value.shape.toString()));
        item->setToolTip(0, item->text(0));
    }
}

// The first few names of a list, then how many more.
QString firstFew(const std::vector<std::string>& names, std::size_t shown, const QString& separator)
{
    QStringList parts;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i)
        parts << QString::fromStdString(names[i]);
    if (names.size() > shown)
        parts << ModelSummaryView::tr("and %L1 more").arg(names.size() - shown);
    return parts.join(separator);
}

}  // namespace

ModelSummaryView::ModelSummaryView(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("titleValue"));
    QFont titleFont = title_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    title_->setFont(titleFont);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long file name is cut rather than widening the column; the path below wraps.
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    path_ = new QLabel(this);
    path_->setObjectName(QStringLiteral("pathValue"));
    path_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    path_->setForegroundRole(QPalette::PlaceholderText);
    path_->setWordWrap(true);

    auto* origin = new QGroupBox(tr("Model"), this);
    auto* originForm = new QFormLayout(origin);
    producer_ = addValueRow(originForm, tr("Producer:"), QStringLiteral("producerValue"));
    graphName_ = addValueRow(originForm, tr("Graph:"), QStringLiteral("graphNameValue"));
    irVersion_ = addValueRow(originForm, tr("ONNX IR version:"), QStringLiteral("irVersionValue"));
    opsets_ = addValueRow(originForm, tr("Opsets:"), QStringLiteral("opsetsValue"));
    shapes_ = addValueRow(originForm, tr("Shapes:"), QStringLiteral("shapesValue"));

    auto* size = new QGroupBox(tr("Size"), this);
    auto* sizeForm = new QFormLayout(size);
    parameterCount_ = addValueRow(sizeForm, tr("Parameters:"), QStringLiteral("parameterCountValue"), false);
    parameterBytes_ = addValueRow(sizeForm, tr("Weight memory:"), QStringLiteral("parameterBytesValue"), false);
    weightCount_ = addValueRow(sizeForm, tr("Weight tensors:"), QStringLiteral("weightCountValue"), false);
    opCount_ = addValueRow(sizeForm, tr("Ops:"), QStringLiteral("opCountValue"), false);
    tensorCount_ = addValueRow(sizeForm, tr("Tensors:"), QStringLiteral("tensorCountValue"), false);
    unpriced_ = addValueRow(sizeForm, tr("Not priced:"), QStringLiteral("unpricedValue"));

    // Stacked, not side by side: the summary shares a column with the scope tree, and two
    // boxes next to each other made it wider than the column (the sizes behind a scroll bar).
    auto* facts = new QVBoxLayout;
    facts->addWidget(origin);
    facts->addWidget(size);

    values_ = new QTreeWidget(this);
    values_->setObjectName(QStringLiteral("valuesView"));
    values_->setHeaderLabels({tr("Name"), tr("Type"), tr("Shape")});
    values_->setRootIsDecorated(true);
    values_->setUniformRowHeights(true);
    values_->header()->setStretchLastSection(true);

    histogram_ = new OpHistogramModel(this);
    sortedHistogram_ = new QSortFilterProxyModel(this);
    sortedHistogram_->setSourceModel(histogram_);
    sortedHistogram_->setSortRole(OpHistogramModel::SortRole);
    histogramView_ = new QTableView(this);
    histogramView_->setObjectName(QStringLiteral("opHistogramView"));
    histogramView_->setModel(sortedHistogram_);
    histogramView_->setSortingEnabled(true);
    histogramView_->sortByColumn(OpHistogramModel::CountColumn, Qt::DescendingOrder);
    histogramView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    histogramView_->setAlternatingRowColors(true);
    histogramView_->setShowGrid(false);
    histogramView_->setWordWrap(false);
    histogramView_->setItemDelegateForColumn(OpHistogramModel::ShareColumn,
                                             new ShareBarDelegate(OpHistogramModel::BarFractionRole, this));
    // Text-height rows, like the tree views beside it, instead of the style's taller default.
    QHeaderView* rows = histogramView_->verticalHeader();
    rows->hide();
    rows->setMinimumSectionSize(1);
    rows->setDefaultSectionSize(fontMetrics().height() + 6);
    rows->setSectionResizeMode(QHeaderView::Fixed);
    QHeaderView* columns = histogramView_->horizontalHeader();
    columns->setSectionResizeMode(OpHistogramModel::TypeColumn, QHeaderView::ResizeToContents);
    columns->setSectionResizeMode(OpHistogramModel::CountColumn, QHeaderView::ResizeToContents);
    columns->setSectionResizeMode(OpHistogramModel::ShareColumn, QHeaderView::Stretch);

    auto* opTypes = new QGroupBox(tr("Op types"), this);
    (new QVBoxLayout(opTypes))->addWidget(histogramView_);
    auto* inputsOutputs = new QGroupBox(tr("Graph inputs and outputs"), this);
    (new QVBoxLayout(inputsOutputs))->addWidget(values_);
    inputsOutputs->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(path_);
    layout->addLayout(facts);
    layout->addWidget(inputsOutputs);
    layout->addWidget(opTypes, 1);

    setModel(nullptr);
}

void ModelSummaryView::setPrecision(DataType type)
{
    precision_ = type;
    showWeightMemory();
}

void ModelSummaryView::showWeightMemory()
{
    if (!model_)
        return;
    const ParameterCount& parameters = model_->summary.parameters;
    const auto bytes = static_cast<std::uint64_t>(parameters.parameters * static_cast<std::uint64_t>(dataTypeBits(precision_)) / 8);
    parameterBytes_->setText(QuantityFormat::bytes(bytes));
    parameterBytes_->setToolTip(tr("%1 parameters in %2; %3 as stored in the file")
                                    .arg(QuantityFormat::exact(parameters.parameters),
                                         QString::fromLatin1(dataTypeName(precision_)),
                                         QuantityFormat::bytes(parameters.bytes)));
}

void ModelSummaryView::fitValuesHeight()
{
    // Tall enough for every input and output up to kMaxVisibleValueRows, so the op
    // histogram below gets the rest of the height.
    constexpr int kMaxVisibleValueRows = 10;
    int rowCount = 0;
    for (QTreeWidgetItemIterator it(values_); *it; ++it)
        ++rowCount;
    const int rowHeight = values_->sizeHintForRow(0) > 0 ? values_->sizeHintForRow(0) : fontMetrics().height() + 4;
    const int visibleRows = std::clamp(rowCount, 2, kMaxVisibleValueRows);
    values_->setFixedHeight(values_->header()->sizeHint().height() + visibleRows * rowHeight +
                            2 * values_->frameWidth() + 2);
}

void ModelSummaryView::showUnpricedOps(const std::vector<std::string>& ops)
{
    // The planner cannot price a MatMul, Gemm or Conv whose operand shapes stayed unknown:
    // the user is told which, as `tapestry-cli inspect` lists them.
    if (ops.empty()) {
        unpriced_->setText(tr("none"));
        unpriced_->setToolTip({});
        return;
    }
    const int count = static_cast<int>(ops.size());
    unpriced_->setText(tr("%n op(s) whose operand shapes could not be inferred: %1", "", count).arg(firstFew(ops, 3, QStringLiteral(", "))));
    unpriced_->setToolTip(firstFew(ops, 40, QStringLiteral("\n")));
}

QLabel* ModelSummaryView::addValueRow(QFormLayout* form, const QString& label, const QString& objectName, bool wrap)
{
    auto* value = new QLabel(this);
    value->setObjectName(objectName);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(wrap);
    form->addRow(label, value);
    return value;
}

void ModelSummaryView::setModel(const std::shared_ptr<const LoadedModel>& model)
{
    values_->clear();
    model_ = model;
    if (!model) {
        for (QLabel* label : {title_, path_, producer_, graphName_, irVersion_, opsets_, shapes_, opCount_,
                              tensorCount_, parameterCount_, parameterBytes_, weightCount_, unpriced_})
            label->clear();
        histogram_->setHistogram({}, 0);
        return;
    }
    const ModelSummary& summary = model->summary;
    const ModelInfo& info = summary.info;

    title_->setText(QFileInfo(model->path).fileName());
    title_->setToolTip(title_->text());
    path_->setText(QFileInfo(model->path).absoluteFilePath());

    const QString producer = QString::fromStdString(info.producerName);
    const QString producerVersion = QString::fromStdString(info.producerVersion);
    producer_->setText(producer.isEmpty() ? tr("not recorded")
                                          : (producerVersion.isEmpty() ? producer : producer + u' ' + producerVersion));
    graphName_->setText(info.graphName.empty() ? tr("unnamed") : QString::fromStdString(info.graphName));
    irVersion_->setText(QString::number(info.irVersion));
    opsets_->setText(opsetText(info.opsetImports));
    shapes_->setText(info.shapesInferred ? tr("inferred by ONNX shape inference") : tr("recorded in the file"));

    const ParameterCount& parameters = summary.parameters;
    parameterCount_->setText(QuantityFormat::count(parameters.parameters));
    parameterCount_->setToolTip(tr("%1 parameters").arg(QuantityFormat::exact(parameters.parameters)));
    showWeightMemory();
    weightCount_->setText(QuantityFormat::exact(parameters.weights));
    opCount_->setText(QuantityFormat::exact(summary.opCount));
    tensorCount_->setText(QuantityFormat::exact(summary.tensorCount));
    showUnpricedOps(info.unsizedOps);

    auto* inputs = new QTreeWidgetItem(values_, {tr("Inputs (%1)").arg(summary.inputs.size())});
    addValues(inputs, summary.inputs);
    auto* outputs = new QTreeWidgetItem(values_, {tr("Outputs (%1)").arg(summary.outputs.size())});
    addValues(outputs, summary.outputs);
    for (QTreeWidgetItem* group : {inputs, outputs}) {
        group->setFirstColumnSpanned(true);
        QFont font = group->font(0);
        font.setBold(true);
        group->setFont(0, font);
    }
    values_->expandAll();
    values_->resizeColumnToContents(0);
    values_->resizeColumnToContents(1);
    fitValuesHeight();

    histogram_->setHistogram(summary.opHistogram, summary.opCount);
}

}  // namespace tapestry
