#include "charts/CostSplitChart.h"

#include "charts/ChartViews.h"
#include "solver/SolutionEvaluator.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QHorizontalStackedBarSeries>
#include <QLocale>
#include <QValueAxis>

namespace tapestry {

CostSplitChart::CostSplitChart(QWidget* parent) : QChartView(parent)
{
    setObjectName(QStringLiteral("costSplitChart"));
    styleChartView(this);
    setMinimumHeight(110);
}

void CostSplitChart::setEvaluation(const SolutionEvaluation* evaluation)
{
    QChart* c = chart();
    clearChart(c);
    if (!evaluation)
        return;
    const double total = static_cast<double>(evaluation->cost);
    const auto share = [&](CostSum part) {
        return QLocale().toString(total > 0 ? 100.0 * static_cast<double>(part) / total : 0.0, 'f', 1);
    };
    auto* series = new QHorizontalStackedBarSeries(c);
    auto* nodes = new QBarSet(tr("Node costs %1 %").arg(share(evaluation->nodeCost)), series);
    nodes->setColor(QColor(0x4c, 0xaf, 0x50));
    nodes->setBorderColor(nodes->color());
    *nodes << static_cast<double>(evaluation->nodeCost);
    auto* edges = new QBarSet(tr("Edge costs %1 %").arg(share(evaluation->edgeCost)), series);
    edges->setColor(QColor(0x1e, 0x88, 0xe5));
    edges->setBorderColor(edges->color());
    *edges << static_cast<double>(evaluation->edgeCost);
    series->append(nodes);
    series->append(edges);
    series->setBarWidth(0.8);
    c->addSeries(series);
    // One bar that fills the width: the legend gives the shares, the form beside it the numbers.
    auto* category = new QBarCategoryAxis(c);
    category->append(tr("Cost"));
    category->setVisible(false);
    auto* value = new QValueAxis(c);
    value->setRange(0, total > 0 ? total : 1);
    value->setVisible(false);
    c->addAxis(category, Qt::AlignLeft);
    c->addAxis(value, Qt::AlignBottom);
    series->attachAxis(category);
    series->attachAxis(value);
}

}  // namespace tapestry
