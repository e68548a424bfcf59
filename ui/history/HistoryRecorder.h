#pragma once

#include "history/HistoryRecords.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <map>
#include <memory>

namespace tapestry {

class HistoryStore;
class PlanPricing;
struct Cluster;
struct FoldedModel;
struct LoadedModel;
struct PlanCandidate;
struct SearchOutcome;
struct SearchSetup;

// Records the window's searches and plan versions in the history database the CLI
// uses (defaultHistoryPath(): $TAPESTRY_HISTORY, else the XDG data folder), so that
// `tapestry-cli history list` shows them too. The store is opened on first use; a
// history that cannot be opened or written is reported (problem()) and never stops the
// work itself. Writes are a few small SQLite transactions, done on the GUI thread.
class HistoryRecorder : public QObject {
    Q_OBJECT

public:
    explicit HistoryRecorder(QObject* parent = nullptr);
    ~HistoryRecorder() override;

    [[nodiscard]] std::filesystem::path path() const;
    // The open store; null when it cannot be opened (see problem()).
    [[nodiscard]] HistoryStore* store();
    [[nodiscard]] const QString& problem() const { return problem_; }

    // A search starting: its run is recorded now (Running), so that the history keeps
    // when it started and how long it took.
    void beginSearch(const FoldedModel& folded, const SearchSetup& setup);
    // A finished (or cancelled) search as one run with its plans (the run beginSearch
    // opened, else a new one); marks stale plans.
    void recordSearch(const FoldedModel& folded, const SearchSetup& setup, const SearchOutcome& results);
    // The search beginSearch recorded ended without results (failed, or dropped for
    // another model): its run ends with `status` and `message`.
    void endSearch(RunStatus status, const std::string& message);
    // A plan made outside a search (an edit, an expert start, a completion) with its parent.
    PlanRecordId recordPlan(const PlanPricing& pricing, const PlanCandidate& candidate, PlanRecordId parent);
    // The record of a candidate recorded by this window (a search result); invalid if none.
    [[nodiscard]] PlanRecordId recordOf(const std::shared_ptr<const PlanCandidate>& candidate) const;
    void remember(std::shared_ptr<const PlanCandidate> candidate, PlanRecordId record);


signals:
    // Something was written: the history browser reads it again.
    void recorded();
    // Translated text naming the file.
    void failed(const QString& problem);

private:
    void report(const std::exception& error);

    std::unique_ptr<HistoryStore> store_;
    RunId openRun_;  // the search under way, recorded by beginSearch
    QString problem_;
    std::map<std::shared_ptr<const PlanCandidate>, PlanRecordId> records_;
};

}  // namespace tapestry
