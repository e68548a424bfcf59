#pragma once

#include <QChartView>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>

namespace tapestry {

struct ShardingSolution;

// A solution's memory usage over time as an area, against the problem's usage limit
// (a dashed line), with the peak marked (and the first overload, when there is one).
// Long profiles are drawn as one column per pixel (usageEnvelope): the area up to each
// column's smallest usage, a lighter band up to its largest, so the peak always shows.
// Series carry object names for tests: usageSeries, usageRangeSeries, limitSeries,
// peakSeries, overloadSeries.
class UsageProfileChart : public QChartView {
    Q_OBJECT

public:
    explicit UsageProfileChart(QWidget* parent = nullptr);

    // Null clears the chart.
    void setSolution(std::shared_ptr<const ShardingSolution> solution, std::optional<std::int64_t> limit);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    [[nodiscard]] int columnCount() const;

    std::shared_ptr<const ShardingSolution> solution_;
    std::optional<std::int64_t> limit_;
    int builtColumns_ = 0;
    QTimer resized_;
};

}  // namespace tapestry
