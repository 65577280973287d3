#pragma once

#include "NewestLoad.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

class QLabel;
class QTreeWidget;

namespace tilescope::gui {

class ReportSession;

/// The "Debug information" details pane: the operations (PopLibs calls, user layers) that
/// created the selected program, step or variable, or one selected operation, each with its
/// API call summary and its recorded arguments, outputs and user values as a tree, with the
/// summary as tooltip, and a "recorded" row saying what the report holds for each. The operations
/// are read off the UI thread; a newer selection wins.
class DebugInfoPane : public QWidget {
    Q_OBJECT
public:
    explicit DebugInfoPane(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    void showOperation(std::int64_t operationId);
    void showProgram(std::int64_t programId);
    void showVariable(std::int64_t variableId);
    /// The operations of the program a lowered step executes.
    void showStep(std::int64_t stepId);
    void clear();

    /// What the pane shows now (for tests and screenshots).
    const std::vector<report::OperationRecord>& operations() const { return operations_; }
    /// The format version of the report the operations were read from.
    int formatVersion() const { return formatVersion_; }

signals:
    /// The pane has drawn the operations of the latest selection.
    void shown();

private:
    enum class Kind { Operation, Program, Variable, Step };
    void load(Kind kind, std::int64_t id);
    struct Loaded {
        std::vector<report::OperationRecord> operations;
        int formatVersion = 0;
    };
    void display(Loaded loaded);

    std::shared_ptr<ReportSession> session_;
    QLabel* title_ = nullptr;
    QTreeWidget* tree_ = nullptr;
    std::vector<report::OperationRecord> operations_;
    int formatVersion_ = 0;
    NewestLoad load_; // the operations of what was shown last
};

} // namespace tilescope::gui
