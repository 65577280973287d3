#pragma once

#include "tilescope/report/ProfileTypes.hpp"

#include <QAbstractItemModel>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The program tree as a lazy QAbstractItemModel: control programs (Sequence, Repeat, ...) and,
/// under the programs that lower to BSP steps, those steps. Nothing below the roots is read until
/// a view expands a node: fetchMore() queries that node's children on a worker thread and
/// inserts them when they arrive, so a program of any size opens instantly and the UI thread
/// never waits for SQLite. Columns: name, kind, code bytes, detail (compute set, repeat count,
/// step cycles). Entry points carry the engine program's name. findNext() searches program
/// names in the file and loads just the path to the hit.
class ProgramTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, CodeColumn, DetailColumn, ColumnCount };

    /// What the details pane shows for a program, gathered off the UI thread.
    struct ProgramDetails {
        report::ProgramRecord program;
        QString computeSet;
        std::int64_t steps = 0;            // lowered steps of this program itself
        std::uint64_t estimatedCycles = 0; // summed over those steps
        QString entryPoint;
    };

    explicit ProgramTreeModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);
    ~ProgramTreeModel() override;

    /// Starts reading the roots.
    void load();
    bool isLoaded() const;
    /// Number of child queries in flight.
    int fetchesInFlight() const { return inFlight_; }

    const report::ProgramRecord* programAt(const QModelIndex& index) const;
    const report::StepRecord* stepAt(const QModelIndex& index) const;
    /// Queries the details of the program at `index`; answers with detailsReady.
    void requestDetails(const QModelIndex& index);
    /// Shows `programId` and its steps set apart (bold, tinted in its colour); none clears.
    void setHighlightedProgram(std::optional<std::int64_t> programId);
    std::optional<std::int64_t> highlightedProgram() const { return highlighted_; }
    /// Finds the next program (after the last one found for the same text, wrapping around)
    /// whose name contains `text`, loads the nodes on its path and answers with `found(index)`,
    /// or `notFound`.
    void findNext(const QString& text);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

signals:
    void fetchFinished(const QModelIndex& parent);
    void detailsReady(const tilescope::gui::ProgramTreeModel::ProgramDetails& details);
    void found(const QModelIndex& index);
    void notFound(const QString& text);
    void failed(const QString& message);

private:
    struct Node;
    struct Fetched;
    Node* nodeFrom(const QModelIndex& index) const;
    QModelIndex indexOf(const Node* node, int column = 0) const;
    /// Walks revealPath_ down from the root, fetching nodes on the way (resumed by each fetch).
    void continueReveal();

    std::shared_ptr<ReportSession> session_;
    std::unique_ptr<Node> root_;
    std::map<std::int64_t, QString> entryPoints_; // program id -> engine program name
    int inFlight_ = 0;
    std::uint64_t detailsGeneration_ = 0;
    QString searchText_;
    std::int64_t lastFoundId_ = 0;
    std::vector<std::int64_t> revealPath_; // program ids from a root down to a search hit
    std::optional<std::int64_t> highlighted_;
};

} // namespace tilescope::gui

Q_DECLARE_METATYPE(tilescope::gui::ProgramTreeModel::ProgramDetails)
