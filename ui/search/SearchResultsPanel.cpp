#include "search/SearchResultsPanel.h"

#include "search/ParetoChartView.h"
#include "search/SearchOutcome.h"
#include "search/SearchResultsModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tapestry {

SearchResultsPanel::SearchResultsPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("searchResults"));
    message_ = new QLabel(tr("Press Start Search (F5) to search plans for the model on screen."), this);
    message_->setObjectName(QStringLiteral("searchMessage"));
    message_->setWordWrap(true);

    model_ = new SearchResultsModel(this);
    sorted_ = new QSortFilterProxyModel(this);
    sorted_->setSourceModel(model_);
    sorted_->setSortRole(SearchResultsModel::SortRole);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("searchResultsTable"));
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SearchResultsModel::StepColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    // The numbers keep their width; the plan's name and role share what is left and are
    // cut (the tooltip has them whole), so no column ends beyond the view on a laptop.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(SearchResultsModel::PlanColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(SearchResultsModel::OriginColumn, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(fontMetrics().averageCharWidth() * 6);
    table_->setWordWrap(false);
    table_->setToolTip(tr("Click a plan to inspect it."));

    chart_ = new ParetoChartView(this);
    chart_->setToolTip(tr("Click a point to inspect its plan."));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 600});
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(message_);
    layout->addWidget(split, 1);

    connect(table_, &QTableView::clicked, this, &SearchResultsPanel::openRow);
    connect(table_, &QTableView::activated, this, &SearchResultsPanel::openRow);
    connect(chart_, &ParetoChartView::candidateClicked, this, [this](std::shared_ptr<const PlanCandidate> candidate) {
        const int row = model_->rowOf(candidate.get());
        if (row >= 0)
            table_->selectRow(sorted_->mapFromSource(model_->index(row, 0)).row());
        emit candidateOpened(std::move(candidate));
    });
}

void SearchResultsPanel::setResults(std::shared_ptr<const SearchOutcome> results)
{
    model_->setResults(results);
    chart_->setResults(std::move(results));
}

void SearchResultsPanel::setMessage(const QString& text)
{
    message_->setText(text);
}

void SearchResultsPanel::openRow(const QModelIndex& proxyIndex)
{
    if (auto candidate = model_->candidate(sorted_->mapToSource(proxyIndex).row()))
        emit candidateOpened(std::move(candidate));
}

}  // namespace tapestry
