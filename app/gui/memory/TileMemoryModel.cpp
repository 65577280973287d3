#include "TileMemoryModel.hpp"

#include "PhysicalTileOrder.hpp"
#include "core/Background.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>

namespace tilescope::gui {

/// What load() reads: every stored (category, region) series, per tile. Immutable once built, so
/// it can be handed from the worker to the UI thread by shared pointer.
struct TileMemoryModel::Data {
    std::uint32_t numTiles = 0;
    std::uint32_t tilesPerIpu = 0;
    std::uint64_t bytesPerTile = 0;
    std::vector<report::MemoryCategory> categories;
    std::vector<report::MemoryRegion> regions;
    /// [category index * regions + region index][tile]; empty when the report has no such row.
    std::vector<std::vector<std::uint64_t>> cells;
    report::TilePlacement placement;
    QString placementProblem;                // why there is no physical order, if there is none
    std::vector<std::uint32_t> physical;     // [position] -> tile, in physical order
    std::vector<std::uint32_t> physicalSlot; // [tile] -> position, in physical order

    const std::vector<std::uint64_t>& cell(std::size_t c, std::size_t r) const {
        return cells[c * regions.size() + r];
    }
};

TileMemoryModel::TileMemoryModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)) {}

TileMemoryModel::~TileMemoryModel() = default;

void TileMemoryModel::load() {
    auto session = session_;
    runInBackground<std::shared_ptr<const Data>>(
        this,
        [session] {
            return session->read([](const report::ProfileReader& reader) {
                auto d = std::make_shared<Data>();
                d->numTiles = reader.target().numTiles();
                d->tilesPerIpu = reader.target().tilesPerIpu;
                d->bytesPerTile = reader.target().bytesPerTile;
                d->categories = reader.memoryCategories();
                d->regions = reader.target().regions;
                d->cells.resize(d->categories.size() * d->regions.size());
                // Only rows the report stores: absent (category, region) pairs are all zero.
                for (const report::TileMemoryRow& row : reader.tileMemoryTotals()) {
                    auto c = std::find_if(d->categories.begin(), d->categories.end(),
                                          [&](const auto& x) { return x.id == row.categoryId; });
                    auto r = std::find_if(d->regions.begin(), d->regions.end(),
                                          [&](const auto& x) { return x.id == row.regionId; });
                    if (c == d->categories.end() || r == d->regions.end() || row.totalBytes == 0)
                        continue;
                    d->cells[std::size_t(c - d->categories.begin()) * d->regions.size() +
                             std::size_t(r - d->regions.begin())] =
                        reader.tileMemory(row.categoryId, row.regionId);
                }
                d->placement = readTilePlacement(reader, QString(), &d->placementProblem);
                if (!d->placement.empty()) {
                    d->physical = d->placement.physicalOrder(d->tilesPerIpu);
                    d->physicalSlot.resize(d->physical.size());
                    for (std::uint32_t p = 0; p < d->physical.size(); ++p)
                        d->physicalSlot[d->physical[p]] = p;
                }
                return std::shared_ptr<const Data>(std::move(d));
            });
        },
        [this](std::shared_ptr<const Data> data) {
            data_ = std::move(data);
            loaded_ = true;
            if (!hasPhysicalOrder())
                order_ = TileOrder::Software;
            rebuildSeries();
            emit loadedChanged();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

std::uint32_t TileMemoryModel::tileCount() const {
    return data_ ? data_->numTiles : 0;
}
std::uint32_t TileMemoryModel::tilesPerIpu() const {
    return data_ ? data_->tilesPerIpu : 0;
}
std::uint64_t TileMemoryModel::bytesPerTile() const {
    return data_ ? data_->bytesPerTile : 0;
}

bool TileMemoryModel::hasPhysicalOrder() const {
    return data_ && !data_->physical.empty();
}

QString TileMemoryModel::placementProblem() const {
    return data_ ? data_->placementProblem : QString();
}

const report::TilePlacement& TileMemoryModel::placement() const {
    static const report::TilePlacement none;
    return data_ ? data_->placement : none;
}

void TileMemoryModel::setTileOrder(TileOrder order) {
    if (order == TileOrder::Physical && data_ && !hasPhysicalOrder())
        order = TileOrder::Software;
    if (order == order_)
        return;
    order_ = order;
    rebuildPrefixSums();
    emit seriesChanged();
}

std::uint32_t TileMemoryModel::tileAt(std::uint32_t position) const {
    if (order_ == TileOrder::Physical && data_ && position < data_->physical.size())
        return data_->physical[position];
    return position;
}

std::uint32_t TileMemoryModel::positionOf(std::uint32_t tile) const {
    if (order_ == TileOrder::Physical && data_ && tile < data_->physicalSlot.size())
        return data_->physicalSlot[tile];
    return tile;
}

TileSelection TileMemoryModel::tilesAt(std::uint32_t first, std::uint32_t end) const {
    end = std::min(end, tileCount());
    if (first >= end)
        return {};
    if (order_ == TileOrder::Software)
        return TileSelection::range(first, end - 1);
    std::vector<std::uint32_t> tiles;
    tiles.reserve(end - first);
    for (std::uint32_t p = first; p < end; ++p)
        tiles.push_back(tileAt(p));
    return TileSelection::of(std::move(tiles));
}

bool TileMemoryModel::anySelected(const TileSelection& tiles, std::uint32_t first,
                                  std::uint32_t end) const {
    if (tiles.empty() || first >= end)
        return false;
    if (order_ == TileOrder::Software)
        return tiles.intersects(first, end - 1);
    for (std::uint32_t p = first; p < end; ++p)
        if (tiles.contains(tileAt(p)))
            return true;
    return false;
}

std::pair<std::uint32_t, std::uint32_t>
TileMemoryModel::positionSpan(const TileSelection& tiles) const {
    if (tiles.empty())
        return {0, 0};
    if (order_ == TileOrder::Software)
        return {tiles.ranges().front().first, tiles.ranges().back().last + 1};
    std::uint32_t lo = UINT32_MAX, hi = 0;
    for (const TileSelection::Range& r : tiles.ranges())
        for (std::uint32_t t = r.first; t <= r.last && t < tileCount(); ++t) {
            lo = std::min(lo, positionOf(t));
            hi = std::max(hi, positionOf(t) + 1);
        }
    return lo < hi ? std::pair{lo, hi} : std::pair{0u, 0u};
}

QStringList TileMemoryModel::regionNames() const {
    QStringList names;
    if (data_)
        for (const auto& r : data_->regions)
            names << QString::fromStdString(r.name);
    return names;
}

void TileMemoryModel::setBreakdown(Breakdown b) {
    if (b == breakdown_)
        return;
    breakdown_ = b;
    rebuildSeries();
}

void TileMemoryModel::setIncludeGaps(bool include) {
    if (include == includeGaps_)
        return;
    includeGaps_ = include;
    rebuildSeries();
}

void TileMemoryModel::rebuildSeries() {
    seriesNames_.clear();
    seriesKeys_.clear();
    series_.clear();
    total_.clear();
    seriesPrefix_.clear();
    totalPrefix_.clear();
    maxTileTotal_ = 0;
    if (!data_) {
        emit seriesChanged();
        return;
    }
    const Data& d = *data_;
    const std::size_t tiles = d.numTiles;
    auto isGap = [](const report::MemoryCategory& c) { return c.group == "gap"; };
    auto addSeries = [&](QString name, std::int64_t key, auto&& useCell) {
        std::vector<std::uint64_t> v(tiles, 0);
        bool any = false;
        for (std::size_t c = 0; c < d.categories.size(); ++c) {
            if (isGap(d.categories[c]) && !includeGaps_)
                continue;
            for (std::size_t r = 0; r < d.regions.size(); ++r) {
                const auto& cell = d.cell(c, r);
                if (cell.empty() || !useCell(d.categories[c], r))
                    continue;
                any = true;
                for (std::size_t t = 0; t < tiles; ++t)
                    v[t] += cell[t];
            }
        }
        // Empty categories would only add legend noise; the total is kept even when zero.
        if (!any && breakdown_ != Breakdown::Total)
            return;
        seriesNames_ << std::move(name);
        seriesKeys_.push_back(key);
        series_.push_back(std::move(v));
    };
    switch (breakdown_) {
    case Breakdown::Total:
        addSeries(tr("Total"), -1, [](const auto&, std::size_t) { return true; });
        break;
    case Breakdown::Category:
        for (const auto& cat : d.categories)
            addSeries(QString::fromStdString(cat.label), cat.id,
                      [&](const auto& c, std::size_t) { return c.id == cat.id; });
        break;
    case Breakdown::Region:
        for (std::size_t r = 0; r < d.regions.size(); ++r)
            addSeries(QString::fromStdString(d.regions[r].name), -100 - std::int64_t(r),
                      [r](const auto&, std::size_t region) { return region == r; });
        break;
    case Breakdown::Liveness:
        addSeries(tr("Always-live"), -10,
                  [](const auto& c, std::size_t) { return c.liveness == "always"; });
        addSeries(tr("Not-always-live (peak)"), -11,
                  [](const auto& c, std::size_t) { return c.liveness == "not_always"; });
        addSeries(tr("Gaps"), -12, [](const auto& c, std::size_t) { return c.liveness == "none"; });
        break;
    }
    total_.assign(tiles, 0);
    for (const auto& s : series_)
        for (std::size_t t = 0; t < tiles; ++t)
            total_[t] += s[t];
    for (std::size_t t = 0; t < tiles; ++t)
        maxTileTotal_ = std::max(maxTileTotal_, total_[t]);
    rebuildPrefixSums();
    emit seriesChanged();
}

void TileMemoryModel::rebuildPrefixSums() {
    const std::size_t n = total_.size();
    totalPrefix_.assign(n + 1, 0.0);
    for (std::size_t p = 0; p < n; ++p)
        totalPrefix_[p + 1] = totalPrefix_[p] + double(total_[tileAt(std::uint32_t(p))]);
    seriesPrefix_.resize(series_.size());
    for (std::size_t s = 0; s < series_.size(); ++s) {
        seriesPrefix_[s].assign(n + 1, 0.0);
        for (std::size_t p = 0; p < n; ++p)
            seriesPrefix_[s][p + 1] =
                seriesPrefix_[s][p] + double(series_[s][tileAt(std::uint32_t(p))]);
    }
}

std::uint64_t TileMemoryModel::tileTotal(std::uint32_t tile) const {
    return tile < total_.size() ? total_[tile] : 0;
}

std::uint64_t TileMemoryModel::seriesValue(int s, std::uint32_t tile) const {
    if (s < 0 || std::size_t(s) >= series_.size() || tile >= series_[std::size_t(s)].size())
        return 0;
    return series_[std::size_t(s)][tile];
}

TileMemoryModel::Columns TileMemoryModel::columns(std::uint32_t first, std::uint32_t end,
                                                  int maxColumns) const {
    Columns out;
    end = std::min<std::uint32_t>(end, std::uint32_t(total_.size()));
    if (first >= end || maxColumns < 1)
        return out;
    const std::uint64_t span = end - first;
    const std::uint64_t n = std::min<std::uint64_t>(span, std::uint64_t(maxColumns));
    out.seriesCount = int(series_.size());
    out.columns.resize(n);
    out.seriesMean.resize(n * series_.size());
    for (std::uint64_t c = 0; c < n; ++c) {
        Column& col = out.columns[c];
        col.first = std::uint32_t(first + c * span / n);
        col.end = std::uint32_t(first + (c + 1) * span / n);
        const double count = double(col.end - col.first);
        std::uint64_t lo = total_[tileAt(col.first)], hi = lo;
        for (std::uint32_t p = col.first + 1; p < col.end; ++p) {
            const std::uint64_t v = total_[tileAt(p)];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        col.minTotal = double(lo);
        col.maxTotal = double(hi);
        col.meanTotal = (totalPrefix_[col.end] - totalPrefix_[col.first]) / count;
        out.maxTotal = std::max(out.maxTotal, col.maxTotal);
        for (std::size_t s = 0; s < series_.size(); ++s)
            out.seriesMean[c * series_.size() + s] =
                (seriesPrefix_[s][col.end] - seriesPrefix_[s][col.first]) / count;
    }
    return out;
}

std::vector<TileMemoryModel::CategoryBytes>
TileMemoryModel::categoryBytes(const TileSelection& tiles) const {
    std::vector<CategoryBytes> out;
    if (!data_)
        return out;
    const Data& d = *data_;
    for (std::size_t c = 0; c < d.categories.size(); ++c) {
        CategoryBytes row;
        row.categoryId = d.categories[c].id;
        row.label = QString::fromStdString(d.categories[c].label);
        row.group = QString::fromStdString(d.categories[c].group);
        row.perRegion.assign(d.regions.size(), 0);
        std::uint64_t sum = 0;
        for (std::size_t r = 0; r < d.regions.size(); ++r) {
            const auto& cell = d.cell(c, r);
            if (cell.empty())
                continue;
            for (const TileSelection::Range& range : tiles.ranges())
                for (std::uint32_t t = range.first; t <= range.last && t < d.numTiles; ++t)
                    row.perRegion[r] += cell[t];
            sum += row.perRegion[r];
        }
        if (sum > 0)
            out.push_back(std::move(row));
    }
    return out;
}

} // namespace tilescope::gui
