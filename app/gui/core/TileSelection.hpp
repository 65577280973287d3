#pragma once

#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

namespace tilescope::gui {

/// A set of global tile numbers kept as sorted, disjoint, inclusive ranges, so that "all 23,552
/// tiles" costs one range. It is what the Memory view's selection box accepts ("0-15, 1472, 2000-")
/// and what the canvas produces on click, shift-click (extend) and ctrl-click (toggle).
class TileSelection {
public:
    struct Range {
        std::uint32_t first = 0;
        std::uint32_t last = 0; // inclusive
        bool operator==(const Range&) const = default;
    };

    TileSelection() = default;
    static TileSelection single(std::uint32_t tile) { return range(tile, tile); }
    static TileSelection range(std::uint32_t first, std::uint32_t last);
    /// The tiles of a list in any order, duplicates allowed (one sort, then one merge pass).
    static TileSelection of(std::vector<std::uint32_t> tiles);
    /// Parses comma-separated tiles and ranges ("3", "10-20", "100-" meaning to the last tile).
    /// Returns nothing, and sets `error`, for text that is not such a list or names a tile
    /// outside [0, numTiles).
    static std::optional<TileSelection> parse(const QString& text, std::uint32_t numTiles,
                                              QString* error = nullptr);

    bool empty() const { return ranges_.empty(); }
    const std::vector<Range>& ranges() const { return ranges_; }
    std::uint64_t count() const;
    bool contains(std::uint32_t tile) const;
    /// True if any tile of [first, last] is selected.
    bool intersects(std::uint32_t first, std::uint32_t last) const;
    void add(Range r);
    void toggle(std::uint32_t tile);
    /// The inverse of parse: "0-15, 1472".
    QString toString() const;
    bool operator==(const TileSelection&) const = default;

private:
    std::vector<Range> ranges_;
};

} // namespace tilescope::gui
