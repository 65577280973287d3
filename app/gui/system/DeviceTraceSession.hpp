#pragma once

#include "TimelineModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QString>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilescope::gui {

/// A profile report (profile.pop) opened next to host traces, for the joint timeline: each engine
/// run placed at the host time it started, its executed steps laid out after it with cycles
/// converted to nanoseconds at the target's clock. Host and device share the host's wall clock
/// (the capture stamps run starts and trace events from the same system clock), so the device
/// steps of a run line up under the host's Engine::run event; the device part of a run lasts what
/// the hardware would take, which in a simulator is less than the host's wall time for it.
/// open() reads the target and the runs; windows are read on demand through the reader (behind a
/// lock: a ProfileReader is not thread-safe), from the run pyramid when zoomed out, so a window
/// costs at most a few queries per visible run whatever the run's length.
/// Lightweight-profiling blocks (format v5) add one track per recording tile and nesting depth,
/// on the same clock as the steps (DeviceTraceBlocks.cpp): they are read once at open(), as the
/// device's bounded block buffers keep them few.
class DeviceTraceSession {
public:
    /// Rows the session contributes to the timeline under its header row.
    /// Block tracks follow: FirstBlockTrack + i is blockTracks()[i].
    enum Track : std::int32_t { Runs = 0, Steps = 1, FirstBlockTrack = 2 };
    /// One block track: the blocks of `tile` at nesting `depth` (0: outermost).
    struct BlockTrack {
        std::uint32_t tile = 0;
        std::uint32_t depth = 0;
    };
    /// Colours (TimelineModel palette indices) of the BSP phases, fixed so they read as a key.
    static std::uint8_t phaseColour(const std::string& phase);

    /// Opens a profile report or a report folder holding profile.pop; throws ReportError.
    static std::shared_ptr<DeviceTraceSession> open(const std::string& path);

    const std::string& path() const { return path_; }
    QString fileName() const;
    const report::TargetInfo& target() const { return target_; }
    const std::vector<report::RunRecord>& runs() const { return runs_; }
    double nsPerCycle() const { return nsPerCycle_; }
    std::int64_t runBeginNs(const report::RunRecord& run) const { return run.hostStartNs; }
    /// Where the run's device time ends (at least 1 ns after it begins).
    std::int64_t runEndNs(const report::RunRecord& run) const;
    bool empty() const { return runs_.empty(); }
    std::int64_t beginNs() const { return beginNs_; }
    std::int64_t endNs() const { return endNs_; }

    const std::vector<BlockTrack>& blockTracks() const { return blockTracks_; }
    /// Blocks of runs the report does not hold (so without a host time): not drawn.
    std::uint64_t unplacedBlocks() const { return unplacedBlocks_; }

    /// Text of a name id of this session's boxes (run labels, program names, phases).
    const QString& name(std::int64_t nameId) const;
    /// The second tooltip line of a single box: cycles and what the box is.
    QString describe(std::int32_t track, const TimelineModel::Box& box) const;

    /// Boxes of one track for the window [fromNs, toNs] at `widthPx` pixels: runs as one box
    /// each; steps as single steps where a run shows few per pixel, otherwise one box per pixel
    /// column from the run pyramid (coloured by its dominant phase). Runs narrower than a pixel
    /// are one box on the steps track too, so they cost no query.
    std::vector<TimelineModel::Box> boxes(std::int32_t track, std::int64_t fromNs,
                                          std::int64_t toNs, int widthPx) const;

private:
    DeviceTraceSession() = default;
    std::int64_t intern(const std::string& text) const; // under mutex_
    std::vector<TimelineModel::Box> runBoxes(std::int64_t fromNs, std::int64_t toNs) const;
    void stepBoxesOfRun(const report::RunRecord& run, std::int64_t fromNs, std::int64_t toNs,
                        double nsPerPixel, std::vector<TimelineModel::Box>& out) const;
    std::int64_t programName(std::int64_t programId) const; // under mutex_
    /// Appends `box`, or, when it and the last box (from `firstMergeable` on) are both narrower
    /// than a pixel and start within one, merges it into that box, as host events are merged. A
    /// merged box takes the name and colour of its longest member: `weight` (cycles) above
    /// `longest`, the weight of the last box's longest so far, or `overrides` (an overflow block).
    static void appendOrMergeNarrow(std::vector<TimelineModel::Box>& out,
                                    std::size_t firstMergeable, const TimelineModel::Box& box,
                                    std::uint64_t weight, bool overrides, double nsPerPixel,
                                    std::uint64_t& longest);
    /// A block placed on the host clock.
    struct PlacedBlock {
        std::int64_t startNs = 0, endNs = 0;
        std::uint64_t cycles = 0;
        std::uint64_t dropped = 0;
        std::int64_t nameId = 0;
        std::uint8_t colour = 0;
        report::BlockKind kind = report::BlockKind::Common;
    };
    void loadBlocks(); // at open()
    std::vector<TimelineModel::Box> blockBoxes(std::size_t track, std::int64_t fromNs,
                                               std::int64_t toNs, int widthPx) const;
    QString describeBlock(std::size_t track, const TimelineModel::Box& box) const;

    std::string path_;
    std::unique_ptr<report::ProfileReader> reader_;
    report::TargetInfo target_;
    std::vector<report::RunRecord> runs_;
    std::vector<std::int64_t> runLabel_; ///< name id per run
    std::vector<BlockTrack> blockTracks_;
    std::vector<std::vector<PlacedBlock>> blocks_; ///< per block track, by time (disjoint)
    std::uint64_t unplacedBlocks_ = 0;
    double nsPerCycle_ = 1;
    std::int64_t beginNs_ = 0, endNs_ = 1;
    mutable std::mutex mutex_;
    mutable std::deque<QString> names_; ///< by id; a deque so added names never move
    mutable std::unordered_map<std::string, std::int64_t> nameIds_;
    mutable std::unordered_map<std::int64_t, std::int64_t> programNames_; ///< program -> name id
};

} // namespace tilescope::gui
