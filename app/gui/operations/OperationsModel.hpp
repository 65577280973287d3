#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"

#include <QObject>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The Operations view's data: every user-level operation (a PopLibs call, a layer) with what it
/// cost (estimated cycles and count of its programs' lowered steps, their code, the bytes of its
/// variables, its FLOPs when recorded), the operation it nests in by debug path and the same
/// costs including its descendants (OperationRollup), and for the selected operation its steps with
/// cycles each and its variables: by default those of the operation and every operation nested in
/// it (a model layer's own figures are usually zero, its work is in its children), its own only
/// with setInclusive(false). load() reads the list in one query on a worker thread;
/// selectOperation() reads the operation's steps and variables (with the tiles each variable
/// occupies, for cross-highlighting in the Memory view), a newer selection superseding an older
/// one still running.
class OperationsModel : public QObject {
    Q_OBJECT
public:
    enum OperationColumn {
        Name,
        DebugPath,
        Layer,
        Steps,
        Cycles,
        Code,
        Memory,
        Flops,
        Parent,         // debug path of the enclosing operation
        SubOperations,  // descendants, all levels
        InclusiveSteps, // this and the following: own figures plus every descendant's
        InclusiveCycles,
        InclusiveCode,
        InclusiveMemory,
        InclusiveFlops
    };
    enum StepColumn { StepId, StepProgram, StepKind, StepPhase, StepCycles, StepExchanged };

    explicit OperationsModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void load();
    bool isLoaded() const { return loaded_; }
    /// True if any operation records its FLOPs (the view hides the column otherwise).
    bool hasFlops() const { return hasFlops_; }

    RecordTableModel& operations() { return operations_; }
    RecordTableModel& steps() { return steps_; }
    /// Columns of variableColumns().
    RecordTableModel& variables() { return variables_; }

    /// Operation id of a row of operations().
    std::int64_t operationIdAt(int row) const;
    void selectOperation(std::int64_t operationId);
    /// Steps and variables of the selected operation with its descendants' (true, the default)
    /// or its own only; reloads the selected operation.
    void setInclusive(bool inclusive);
    bool isInclusive() const { return inclusive_; }
    /// Ids of the operation in `row` and of every operation nested in it (itself first).
    std::vector<std::int64_t> operationWithDescendants(int row) const;
    std::optional<std::int64_t> selectedOperation() const { return selected_; }
    bool isLoadingOperation() const { return operationLoad_.busy(); }
    /// Step id of a row of steps().
    std::int64_t stepIdAt(int row) const;
    /// Program id of a row of steps().
    std::int64_t stepProgramAt(int row) const;
    /// Tiles holding bytes of the variable in a row of variables().
    TileSelection variableTilesAt(int row) const;

signals:
    void loadedChanged();
    void operationLoaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    bool loaded_ = false;
    bool hasFlops_ = false;
    RecordTableModel operations_;
    RecordTableModel steps_;
    RecordTableModel variables_;
    std::vector<std::int64_t> operationIds_;
    std::vector<int> parents_; // per row: the row it nests in, -1 at the top level
    bool inclusive_ = true;
    std::vector<std::pair<std::int64_t, std::int64_t>> stepIds_; // (step, program) per row
    std::vector<TileSelection> variableTiles_;
    std::optional<std::int64_t> selected_;
    NewestLoad operationLoad_;
};

} // namespace tilescope::gui
