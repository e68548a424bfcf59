#pragma once

#include "jobs/JobTracker.h"
#include "graphview/GraphViewKind.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <set>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace tapestry {

struct FoldedModel;
struct LoadedModel;
struct GraphViewContent;
struct ViewNodeRef;
class ElidedLabel;
class GraphLegend;
class GraphView;
class PlanOverlay;

// One tab of the graph views: a search and zoom bar, the drawing, a details panel for
// the selected box and a legend. Builds its graph on the GUI thread (cheap) and lays it
// out in the background (QtConcurrent, one job id per request, stale results dropped);
// the old drawing stays until the new one is ready. Double-click expands or collapses
// a family (folded view) or a scope (scope view) in place.
class GraphViewPane : public QWidget {
    Q_OBJECT

public:
    using JobId = quint64;
    // Larger graphs take seconds to lay out and do not read as a drawing anyway.
    static constexpr std::size_t kMaxLaidOutNodes = 1500;

    explicit GraphViewPane(GraphViewKind kind, QWidget* parent = nullptr);
    ~GraphViewPane() override;

    [[nodiscard]] GraphViewKind kind() const { return kind_; }
    [[nodiscard]] GraphView* view() const { return view_; }
    // True while a layout job has not reported back.
    [[nodiscard]] bool isBusy() const { return jobs_.isBusy(); }
    // True once the current model's drawing (or the reason there is none) is on screen.
    [[nodiscard]] bool isShown() const { return shown_; }

    // Shows `message` with a busy indicator and forgets the drawing (a new model is
    // being imported or folded).
    void showPending(const QString& message);
    // Shows `message` instead of a drawing (the model could not be folded).
    void showFailure(const QString& message);
    // The model to draw (its scope tree for the scope view, its fold for the others);
    // nothing is laid out until activate(). Null clears the pane.
    void setModel(std::shared_ptr<const LoadedModel> model, std::shared_ptr<const FoldedModel> folded);
    // Lays the view out if it is not laid out for the current model yet.
    void activate();
    // Expands the family or scope of box `index`, or collapses the one it sits in.
    void toggle(std::size_t index);
    // Colours the boxes by a plan's strategies and marks its collectives (coarse and
    // folded views); null goes back to colouring by kind.
    void setPlanOverlay(std::shared_ptr<const PlanOverlay> overlay);
    // Asks for a file and saves the drawing as it is on screen (SVG or PNG by suffix).
    void saveAs();
    // Drawings side by side share one legend beside them (the comparison).
    void setLegendShown(bool shown);
    // Only the zoom, fit and save buttons in the bar, without the name search and the
    // layout status: for drawings that are named above them (the compared plans).
    void setCompactBar();
    // The search and zoom bar, taken out of the pane for the caller to place (the graph
    // views put it beside their tabs); it keeps working on this pane.
    [[nodiscard]] QWidget* takeBar();

signals:
    // A drawing, or a message in its place, is on screen for the current model.
    void contentShown();
    void foldedViewRequested();

private:
    void startLayout(std::function<bool(const ViewNodeRef&)> focus);
    void showMessage(const QString& text, bool offerFoldedView);
    void setStatus(const QString& text, bool busy);
    void showDetails(std::optional<std::size_t> index);
    void showContextMenu(std::size_t index, const QPoint& globalPos);
    void search();
    [[nodiscard]] QString toggleText(std::size_t index) const;
    [[nodiscard]] QString detailsHtml(std::size_t index) const;
    void applyOverlay();
    void updateLegend();

    GraphViewKind kind_;
    std::shared_ptr<const LoadedModel> model_;
    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const GraphViewContent> content_;
    std::set<std::size_t> expanded_;
    std::shared_ptr<const PlanOverlay> overlay_;
    JobTracker jobs_;
    bool laidOut_ = false;
    bool shown_ = false;
    bool legendShown_ = true;

    QWidget* bar_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* matches_ = nullptr;
    ElidedLabel* status_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    GraphView* view_ = nullptr;
    QTextBrowser* details_ = nullptr;
    QLabel* message_ = nullptr;
    QPushButton* showFolded_ = nullptr;
    GraphLegend* legend_ = nullptr;
};

}  // namespace tapestry
