#pragma once

#include "core/ReportView.hpp"

#include <cstdint>

class QCheckBox;
class QGroupBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace tilescope::gui {

class DebugInfoPane;
class RecordTableModel;
class ExecutionCanvas;
class ExecutionModel;

/// The Execution Trace view: a run selector, the chart's mode (flat phase shares, flame by
/// program, BSP per-tile bands with their tile range) and the run's summary (cycles, time at the
/// target's clock, parallel efficiency, share of each phase, tile balance, stream-copy bytes)
/// above the ExecutionCanvas, and a step filter (name text, phases) whose matching steps the chart
/// highlights and whose figures a second line gives. Clicking a step makes it the selected program
/// step (the Liveness view shows it); clicking a flame bar selects its program (outlined here,
/// selected in the Program Tree). It opens on the flame. Shift+drag selects a cycle range and a
/// panel below the chart sums what ran in it (RangeSummary): cycles by phase and by program,
/// steps and bytes exchanged.
class ExecutionView : public ReportView {
    Q_OBJECT
public:
    explicit ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    ExecutionModel& model() const { return *model_; }
    ExecutionCanvas& canvas() const { return *canvas_; }
    /// The summary line as shown (for tests and screenshots).
    QString summaryText() const;
    /// The step filter's figures as shown (empty without a filter).
    QString filterText() const;
    QLineEdit& filterEdit() const { return *filter_; }
    /// The chart mode (items in ExecutionModel::Mode order).
    QComboBox& modeBox() const { return *mode_; }
    QCheckBox& phaseBox(int phase) const { return *phaseBoxes_[phase]; }
    /// Summarises cycles [firstCycle, endCycle) of the current run in the range panel, as a
    /// Shift+drag on the chart does; rangeShown() is emitted once it is filled.
    void showRange(double firstCycle, double endCycle);
    /// The range panel's summary line and its per-program table.
    QString rangeText() const;
    RecordTableModel& rangePrograms() const { return *rangePrograms_; }
    /// The hint line for the current mode.
    QString hintText() const;

signals:
    void rangeShown();

protected:
    /// Picks up a program selected elsewhere (the Program Tree) while this view was hidden.
    void showEvent(QShowEvent* event) override;

private:
    void showTotals();
    void applyFilter();
    void showFilterFigures();
    void showHint(int mode);
    void rangeFilled();

    ExecutionModel* model_;
    ExecutionCanvas* canvas_;
    DebugInfoPane* debugInfo_;
    QComboBox* runs_;
    QComboBox* mode_;
    QSpinBox* firstTile_;
    QSpinBox* tileCount_;
    QLabel* totals_;
    QLineEdit* filter_;
    QCheckBox* phaseBoxes_[4];
    QLabel* filterFigures_;
    QTimer* filterTyping_; // resolves the filter once typing pauses, not on every key
    QLabel* hint_;
    QGroupBox* rangeBox_;
    QLabel* rangeSummary_;
    RecordTableModel* rangePrograms_;
    std::uint64_t rangeGeneration_ = 0; // only the latest range's answer is shown
    bool rangePending_ = false;
};

} // namespace tilescope::gui
