// A synthetic report's variables and tile memory: always-live weights and temporaries live
// inside their layer, and memory per category scaled to a budget of the fullest tile.

#include "SyntheticReportBuilder.hpp"

#include <fmt/format.h>

namespace tilescope::report::synthetic {
namespace {

/// Scales a raw per-tile series so its fullest tile gets `budget` bytes (4-byte aligned).
PerTile scaleTo(const PerTile& raw, double budget) {
    const std::uint64_t peak = raw.empty() ? 0 : *std::max_element(raw.begin(), raw.end());
    PerTile out(raw.size(), 0);
    if (peak == 0)
        return out;
    const double k = budget / static_cast<double>(peak);
    for (std::size_t i = 0; i < raw.size(); ++i)
        out[i] = static_cast<std::uint64_t>(static_cast<double>(raw[i]) * k) / 4 * 4;
    return out;
}

} // namespace

void SyntheticReportBuilder::writeVariables() {
    const std::uint64_t wanted =
        spec_.variables ? spec_.variables : std::clamp<std::uint64_t>(spec_.steps / 2, 8, 20000);
    const std::uint64_t alwaysLive = std::max<std::uint64_t>(1, wanted / 4);
    const std::uint64_t temporaries = std::max<std::uint64_t>(1, wanted - alwaysLive);
    const double capacity = static_cast<double>(target_.bytesPerTile);

    // Always-live weights: raw sizes first, then one scale so the fullest tile meets budget.
    using Planned = PlannedVariable;
    std::vector<Planned> weights;
    RangeAccumulator rawWeights(tiles_);
    for (std::uint64_t i = 0; i < alwaysLive; ++i) {
        Planned p{static_cast<std::size_t>(uniform(0, layers_.size() - 1)), uniform(64, 4096)};
        rawWeights.add(layers_[p.layer].tiles, static_cast<std::int64_t>(p.raw));
        weights.push_back(p);
    }
    const PerTile raw = rawWeights.values();
    const double weightScale = budgets_.alwaysLive * capacity /
                               static_cast<double>(*std::max_element(raw.begin(), raw.end()));
    RangeAccumulator alwaysLiveBytes(tiles_);
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const Layer& L = layers_[weights[i].layer];
        const std::uint64_t perTile = std::max<std::uint64_t>(
            8, static_cast<std::uint64_t>(weights[i].raw * weightScale) / 8 * 8);
        addVariable(fmt::format("{}/weights{}", L.name, i), L.tiles, perTile, true, 0, 0);
        alwaysLiveBytes.add(L.tiles, static_cast<std::int64_t>(perTile));
    }
    if (spec_.outOfMemory) {
        // A deliberately oversized always-live tensor on the first tiles.
        const TileRange over{0, std::min<std::uint64_t>(8, tiles_)};
        const auto perTile = static_cast<std::uint64_t>(0.75 * capacity) / 8 * 8;
        addVariable("oversized/embedding", over, perTile, true, 0, 0);
        alwaysLiveBytes.add(over, static_cast<std::int64_t>(perTile));
    }
    alwaysLive_ = alwaysLiveBytes.values();

    // Temporaries: each lives inside its layer; the layer's peak is found by a sweep over its
    // steps, and one global scale keeps the worst layer within budget.
    std::vector<std::vector<Planned>> byLayer(layers_.size());
    for (std::uint64_t i = 0; i < temporaries; ++i) {
        const auto l = static_cast<std::size_t>(uniform(0, layers_.size() - 1));
        const Layer& L = layers_[l];
        const auto a = static_cast<std::int64_t>(uniform(static_cast<std::uint64_t>(L.firstStep),
                                                         static_cast<std::uint64_t>(L.lastStep)));
        const auto b = static_cast<std::int64_t>(
            uniform(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(L.lastStep)));
        byLayer[l].push_back({l, uniform(64, 2048), a, b});
    }
    std::uint64_t worstRawPeak = 1;
    for (std::size_t l = 0; l < layers_.size(); ++l)
        worstRawPeak = std::max(worstRawPeak, layerPeak(byLayer[l]));
    const double tempScale = budgets_.notAlwaysLive * capacity / static_cast<double>(worstRawPeak);

    std::vector<std::uint64_t> liveAtStep(steps_.size(), 0); // per tile, within the layer range
    std::vector<std::uint64_t> layerPeakBytes(layers_.size(), 0);
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const Layer& L = layers_[l];
        for (auto& p : byLayer[l]) {
            p.raw =
                std::max<std::uint64_t>(8, static_cast<std::uint64_t>(p.raw * tempScale) / 8 * 8);
            addVariable(fmt::format("{}/tmp{}", L.name, variableCount_), L.tiles, p.raw, false,
                        p.first, p.last);
            for (std::int64_t s = p.first; s <= p.last; ++s)
                liveAtStep[static_cast<std::size_t>(s)] += p.raw;
        }
        std::uint64_t peak = 0;
        for (std::int64_t s = L.firstStep; s <= L.lastStep; ++s)
            peak = std::max(peak, liveAtStep[static_cast<std::size_t>(s)]);
        layerPeakBytes[l] = peak;
    }
    // Per-tile peak: the largest layer peak among the layers using the tile.
    notAlwaysLivePeak_.assign(tiles_, 0);
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const auto& r = layers_[l].tiles;
        for (std::uint64_t t = r.first; t < r.first + r.count; ++t)
            notAlwaysLivePeak_[t] = std::max(notAlwaysLivePeak_[t], layerPeakBytes[l]);
    }
    // Liveness per step now known: rewrite the steps' figures.
    for (std::size_t l = 0; l < layers_.size(); ++l) {
        const Layer& L = layers_[l];
        for (std::int64_t s = L.firstStep; s <= L.lastStep; ++s) {
            const std::uint64_t perTile = liveAtStep[static_cast<std::size_t>(s)];
            nalTotal_.push_back(perTile * L.tiles.count);
            nalMaxTile_.push_back(perTile);
        }
    }
    report(0.45);
}

std::uint64_t SyntheticReportBuilder::layerPeak(const std::vector<PlannedVariable>& vars) {
    std::vector<std::pair<std::int64_t, std::int64_t>> events;
    for (const auto& v : vars) {
        events.push_back({v.first, static_cast<std::int64_t>(v.raw)});
        events.push_back({v.last + 1, -static_cast<std::int64_t>(v.raw)});
    }
    std::sort(events.begin(), events.end());
    std::int64_t cur = 0, peak = 0;
    for (const auto& e : events) {
        cur += e.second;
        peak = std::max(peak, cur);
    }
    return static_cast<std::uint64_t>(peak);
}

void SyntheticReportBuilder::addVariable(const std::string& name, TileRange r,
                                         std::uint64_t perTile, bool alwaysLive, std::int64_t first,
                                         std::int64_t last) {
    VariableRecord v;
    v.name = name;
    v.debugPath = "model/" + name;
    v.elementType = variableCount_ % 3 == 0 ? "float" : "half";
    const std::uint64_t typeSize = v.elementType == "float" ? 4 : 2;
    v.bytes = perTile * r.count;
    v.numElements = v.bytes / typeSize;
    v.categoryId =
        memoryCategoryId(alwaysLive ? "always_live_variables" : "not_always_live_variables");
    v.regionId = 2;
    v.alwaysLive = alwaysLive;
    if (!alwaysLive) {
        v.firstStep = first;
        v.lastStep = last;
    }
    v.perTileEncoded = TileSeries::encodeRuns(rangeRuns(r, tiles_, perTile, perTile));
    writer_.addVariable(v);
    ++variableCount_;
}

void SyntheticReportBuilder::writeTileMemory() {
    const double cap = static_cast<double>(target_.bytesPerTile);
    const PerTile vertexCount = vertexCount_.values();
    RangeAccumulator codeRaw(tiles_);
    for (std::size_t vt = 0; vt < kVertexKinds.size(); ++vt) {
        const PerTile present = vertexPresence_[vt].values();
        for (std::uint64_t t = 0; t < tiles_; ++t)
            if (present[t])
                codeRaw.add({t, 1}, static_cast<std::int64_t>(kVertexKinds[vt].codeBytes));
    }
    PerTile any(tiles_, 0);
    const PerTile cover = layerCover_.values();
    for (std::uint64_t t = 0; t < tiles_; ++t)
        any[t] = cover[t] ? 1 : 0;

    auto scaledByCount = [&](const PerTile& counts, double budget) {
        return scaleTo(counts, budget * cap);
    };
    std::vector<std::pair<std::string, PerTile>> low = {
        {"vertex_code", scaleTo(codeRaw.values(), budgets_.vertexCode * cap)},
        {"vertex_state", scaleTo(vertexState_.values(), budgets_.vertexState * cap)},
        {"vertex_descriptors", scaledByCount(vertexCount, budgets_.descriptors)},
        {"vertex_field_data", scaledByCount(vertexCount, budgets_.fieldData)},
        {"control_code", scaledByCount(cover, budgets_.controlCode)},
        {"internal_exchange_code",
         scaledByCount(internalExchange_.values(), budgets_.internalExchange)},
        {"host_exchange_code", scaledByCount(hostExchange_.values(), budgets_.hostExchange)},
        {"global_exchange_code", scaledByCount(globalExchange_.values(), budgets_.globalExchange)},
        {"exchange_buffers", scaledByCount(any, budgets_.exchangeBuffers)},
        {"stack", scaledByCount(any, budgets_.stack)},
    };
    PerTile lowGap(tiles_, 0), highGap(tiles_, 0);
    for (auto& [name, bytes] : low) {
        writer_.setTileMemory(name, "non_interleaved", bytes);
        for (std::uint64_t t = 0; t < tiles_; ++t)
            lowGap[t] += bytes[t];
    }
    const PerTile constants = scaledByCount(any, budgets_.constants);
    writer_.setTileMemory("always_live_variables", "interleaved", alwaysLive_);
    writer_.setTileMemory("not_always_live_variables", "interleaved", notAlwaysLivePeak_);
    writer_.setTileMemory("constants", "interleaved", constants);
    for (std::uint64_t t = 0; t < tiles_; ++t) {
        lowGap[t] =
            static_cast<std::uint64_t>(static_cast<double>(lowGap[t]) * budgets_.gapFraction) / 4 *
            4;
        highGap[t] =
            static_cast<std::uint64_t>(
                static_cast<double>(alwaysLive_[t] + notAlwaysLivePeak_[t] + constants[t]) *
                budgets_.gapFraction) /
            4 * 4;
    }
    writer_.setTileMemory("gap", "non_interleaved", lowGap);
    writer_.setTileMemory("gap", "interleaved", highGap);
    report(0.5);
}

} // namespace tilescope::report::synthetic
