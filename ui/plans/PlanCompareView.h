#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTableView;

namespace tapestry {

class GraphViewPane;
class PlanDiffModel;
struct FoldedModel;
struct LoadedModel;
struct PlanCandidate;
struct PlanComparison;

// Two plans of the model side by side: each drawn over the folded graph in its
// strategy colours with the boxes that differ highlighted, the table of the nodes whose
// strategies differ (PlanDiffModel) and the totals' delta. The plans are chosen from
// what the window has priced (search results, edits, plans opened from the history).
class PlanCompareView : public QWidget {
    Q_OBJECT

public:
    struct Choice {
        QString label;
        std::shared_ptr<const PlanCandidate> candidate;
    };

    explicit PlanCompareView(QWidget* parent = nullptr);

    // The model and the plans to choose from; a new model clears the comparison.
    void setChoices(std::shared_ptr<const LoadedModel> model, std::shared_ptr<const FoldedModel> folded,
                    QList<Choice> choices);
    // Compares `a` with `b` (added to the choices when new).
    void compare(const Choice& a, const Choice& b);

    [[nodiscard]] PlanDiffModel* diffModel() const { return model_; }
    [[nodiscard]] QTableView* table() const { return table_; }
    [[nodiscard]] QLabel* totals() const { return totals_; }
    [[nodiscard]] GraphViewPane* pane(int side) const { return panes_[side]; }
    [[nodiscard]] QComboBox* choiceBox(int side) const { return boxes_[side]; }
    // How many boxes each drawing highlights (once laid out).
    [[nodiscard]] int highlighted(int side) const { return highlighted_[side]; }

private:
    void fillBoxes();
    void recompare();
    void highlight(int side);

    std::shared_ptr<const LoadedModel> loaded_;
    std::shared_ptr<const FoldedModel> folded_;
    QList<Choice> choices_;
    std::shared_ptr<const PlanComparison> comparison_;
    std::vector<bool> changedNodes_;  // indexed by CoarseNodeId
    QComboBox* boxes_[2] = {};
    GraphViewPane* panes_[2] = {};
    int highlighted_[2] = {};
    PlanDiffModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* totals_ = nullptr;
};

}  // namespace tapestry
