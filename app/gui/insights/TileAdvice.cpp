#include "TileAdvice.hpp"

#include "core/Format.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace tilescope::gui {
namespace {

struct OnTile {
    report::VariableRecord variable;
    std::uint64_t bytes = 0;
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

QString bytesText(std::uint64_t bytes) {
    return formatBytes(double(bytes));
}

QString str(const std::string& s) {
    return QString::fromStdString(s);
}

// The planner's default availableMemoryProportion and the halved value the advice suggests
// (PopLibs' matMul and convolution option; 0.6 is its documented default).
constexpr double kDefaultProportion = 0.6, kSuggestedProportion = 0.3;
// How many of the tile's largest not-always-live variables are traced to their operations.
constexpr std::size_t kTracedVariables = 20;

/// The vertices on the tile (by type and compute set, largest state first) and the steps that
/// move data with the tile taking part (busiest for it first), at most kListed of each.
void addVerticesAndExchanges(const report::ProfileReader& reader, std::uint32_t tile,
                             std::vector<TileAdvice::Part>& parts) {
    constexpr std::size_t kListed = 20;
    std::map<std::int64_t, report::VertexTypeRecord> types;
    for (report::VertexTypeRecord& t : reader.vertexTypes())
        types[t.id] = std::move(t);
    std::vector<TileAdvice::Part> vertices;
    for (const auto& v : reader.vertexInstancesOnTiles({{tile, 1}})) {
        const auto type = types.find(v.vertexTypeId);
        const std::uint64_t each = type != types.end() ? type->second.stateBytes : 0;
        vertices.push_back(
            {QStringLiteral("vertices"),
             QStringLiteral("%1 in %2")
                 .arg(type != types.end() ? str(type->second.name) : QStringLiteral("?"),
                      str(v.computeSet)),
             v.count * each,
             QStringLiteral("%1 instances, state %2 each").arg(v.count).arg(bytesText(each))});
    }
    std::stable_sort(vertices.begin(), vertices.end(),
                     [](const auto& x, const auto& y) { return x.bytes > y.bytes; });
    vertices.resize(std::min(vertices.size(), kListed));
    parts.insert(parts.end(), vertices.begin(), vertices.end());

    auto exchanges = reader.exchangeStepsOnTiles({{tile, 1}});
    std::stable_sort(exchanges.begin(), exchanges.end(),
                     [](const auto& x, const auto& y) { return x.maxCycles > y.maxCycles; });
    for (std::size_t i = 0; i < exchanges.size() && i < kListed; ++i) {
        const report::ExchangeOnTiles& e = exchanges[i];
        if (!e.perTileRecorded)
            continue;
        // The report keeps a step's bytes over all tiles only: no bytes on this tile.
        parts.push_back({QStringLiteral("exchange"), str(e.step.program), 0,
                         QStringLiteral("%1, %2 cycles on this tile; %3 moved over all tiles")
                             .arg(str(e.step.step.kind), formatCount(std::int64_t(e.maxCycles)),
                                  bytesText(e.step.step.exchangeBytes))});
    }
}

} // namespace

TileAdvice TileAdvice::fullestTile(const report::ProfileReader& reader) {
    const report::PerTile totals = reader.tileMemoryTotal(true);
    if (totals.empty())
        return {};
    const auto fullest = std::max_element(totals.begin(), totals.end());
    return forTile(reader, std::uint32_t(fullest - totals.begin()));
}

TileAdvice TileAdvice::forTile(const report::ProfileReader& reader, std::uint32_t tile) {
    TileAdvice a;
    const report::TargetInfo& target = reader.target();
    const report::PerTile totals = reader.tileMemoryTotal(true);
    if (tile >= totals.size())
        return a;
    a.tile = tile;
    a.bytes = totals[tile];
    a.capacity = target.bytesPerTile;
    const std::uint32_t tiles = std::max<std::uint32_t>(1, target.numTiles());

    // The tile by category (regions summed).
    std::vector<Part> categories;
    for (const report::MemoryCategory& c : reader.memoryCategories()) {
        std::uint64_t bytes = 0;
        for (const report::MemoryRegion& r : target.regions) {
            const report::PerTile perTile = reader.tileMemory(c.id, r.id);
            bytes += tile < perTile.size() ? perTile[tile] : 0;
        }
        if (bytes > 0)
            categories.push_back(
                {QStringLiteral("category"), str(c.label), bytes, str(c.liveness)});
    }
    std::sort(categories.begin(), categories.end(),
              [](const Part& x, const Part& y) { return x.bytes > y.bytes; });

    // Variables with bytes on the tile, a page at a time.
    std::vector<OnTile> vars;
    constexpr std::int64_t kPage = 2048;
    for (std::int64_t after = -1;;) {
        auto page = reader.variables(after, kPage, true);
        for (report::VariableRecord& v : page) {
            const std::uint64_t bytes = tile < v.perTile.size() ? v.perTile[tile] : 0;
            if (bytes == 0)
                continue;
            v.perTile.clear();
            vars.push_back({std::move(v), bytes});
        }
        if (std::int64_t(page.size()) < kPage)
            break;
        after = page.back().id;
    }
    std::sort(vars.begin(), vars.end(),
              [](const OnTile& x, const OnTile& y) { return x.bytes > y.bytes; });
    a.parts = categories;
    for (std::size_t i = 0; i < vars.size() && i < kVariables; ++i) {
        const auto& v = vars[i].variable;
        QString detail = str(v.elementType);
        if (!v.alwaysLive && v.firstStep && v.lastStep)
            detail += QStringLiteral(", live steps %1-%2").arg(*v.firstStep).arg(*v.lastStep);
        else
            detail += QStringLiteral(", always live");
        a.parts.push_back({QStringLiteral("variable"), str(v.name), vars[i].bytes, detail});
    }
    addVerticesAndExchanges(reader, tile, a.parts);

    const auto over = [&](std::uint64_t saving) {
        return a.bytes > a.capacity && a.bytes - saving <= a.capacity
                   ? QStringLiteral(" The tile would then fit.")
                   : QString();
    };
    // Spread: the variable that exceeds its even share here by the most.
    std::uint64_t bestExcess = 0;
    const OnTile* spread = nullptr;
    for (const OnTile& v : vars) {
        const std::uint64_t even = (v.variable.bytes + tiles - 1) / tiles;
        if (v.bytes > 2 * even && v.bytes - even > bestExcess) {
            bestExcess = v.bytes - even;
            spread = &v;
        }
    }
    if (spread) {
        const std::uint64_t even = (spread->variable.bytes + tiles - 1) / tiles;
        a.recommendations.push_back(
            {QStringLiteral("Spread the mapping of %1").arg(str(spread->variable.name)),
             QStringLiteral("tile"), bestExcess,
             QStringLiteral("It holds %1 on tile %2 of its %3; mapped evenly over the %4 tiles "
                            "it would hold %5 here.%6")
                 .arg(bytesText(spread->bytes))
                 .arg(tile)
                 .arg(bytesText(spread->variable.bytes))
                 .arg(tiles)
                 .arg(bytesText(even), over(bestExcess))});
    }
    // HALF: 4-byte floats on the tile.
    std::uint64_t floats = 0;
    std::size_t floatCount = 0;
    for (const OnTile& v : vars)
        if (lower(v.variable.elementType) == "float" ||
            lower(v.variable.elementType) == "float32") {
            floats += v.bytes;
            ++floatCount;
        }
    if (floats > 0)
        a.recommendations.push_back(
            {QStringLiteral("Use HALF for the float tensors"), QStringLiteral("model"), floats / 2,
             QStringLiteral("%1 float variables hold %2 on tile %3; in half precision (2 bytes "
                            "an element instead of 4) they would hold half.%4")
                 .arg(floatCount)
                 .arg(bytesText(floats))
                 .arg(tile)
                 .arg(over(floats / 2))});
    // Recompute: the not-always-live variable live the longest among the tile's largest.
    const OnTile* longest = nullptr;
    std::int64_t longestSteps = 0;
    std::uint64_t notAlwaysLive = 0;
    for (const OnTile& v : vars) {
        if (v.variable.alwaysLive || !v.variable.firstStep || !v.variable.lastStep)
            continue;
        notAlwaysLive += v.bytes;
        const std::int64_t steps = *v.variable.lastStep - *v.variable.firstStep + 1;
        if (steps > longestSteps) {
            longestSteps = steps;
            longest = &v;
        }
    }
    if (longest && longestSteps > 1)
        a.recommendations.push_back(
            {QStringLiteral("Recompute %1 where it is used").arg(str(longest->variable.name)),
             QStringLiteral("operation"), longest->bytes,
             QStringLiteral("It is live for %1 steps (%2-%3) and holds %4 on tile %5: "
                            "recomputing it close to its uses frees that memory for most of its "
                            "range.%6")
                 .arg(longestSteps)
                 .arg(*longest->variable.firstStep)
                 .arg(*longest->variable.lastStep)
                 .arg(bytesText(longest->bytes))
                 .arg(tile)
                 .arg(over(longest->bytes))});
    // availableMemoryProportion: temporaries of the matMuls and convolutions on the tile.
    std::uint64_t temporaries = 0;
    std::string owner;
    std::size_t traced = 0;
    for (const OnTile& v : vars) {
        if (v.variable.alwaysLive || traced >= kTracedVariables)
            continue;
        ++traced;
        auto planned = [](const std::string& text) {
            const std::string what = lower(text);
            return what.find("matmul") != std::string::npos ||
                   what.find("conv") != std::string::npos;
        };
        // A temporary the planner made (its own name says so, e.g. "…/matMul/exchange/
        // received") or a variable a matMul or convolution operation created.
        bool counted = planned(v.variable.name + " " + v.variable.debugPath);
        if (counted)
            temporaries += v.bytes;
        if (counted && owner.empty())
            owner = v.variable.name;
        for (const report::OperationRecord& o : reader.operationsOfVariable(v.variable.id)) {
            if (!planned(o.name + " " + o.debugPath))
                continue;
            if (!counted)
                temporaries += v.bytes;
            counted = true;
            if (owner.empty() || owner == v.variable.name)
                owner = o.debugPath.empty() ? o.name : o.debugPath;
            break;
        }
    }
    // The option bounds the temporary memory a plan may use per tile (proportion x tile memory);
    // it is not a share of what the plan uses. Lowering it saves only what lies above the new
    // bound: nothing when the temporaries already fit under it (the planner keeps its plan).
    const auto bound = std::uint64_t(kSuggestedProportion * double(a.capacity));
    if (temporaries > bound) {
        const std::uint64_t saving = temporaries - bound;
        a.recommendations.push_back(
            {QStringLiteral("Lower availableMemoryProportion of %1 to %2")
                 .arg(str(owner))
                 .arg(kSuggestedProportion),
             QStringLiteral("operation"), saving,
             QStringLiteral("Temporaries of matMuls and convolutions (%1 first) hold %2 on tile "
                            "%3; the option bounds them per tile at that share of its memory "
                            "(default %4), so %5 would keep them under %6, at some cost in "
                            "cycles. This is at most what it saves: the smaller plan may add "
                            "reduction partials and exchange code to the tile.%7")
                 .arg(str(owner), bytesText(temporaries))
                 .arg(tile)
                 .arg(kDefaultProportion)
                 .arg(kSuggestedProportion)
                 .arg(bytesText(bound), over(saving))});
    }
    // Halve the batch: activations scale with it.
    if (notAlwaysLive > 0)
        a.recommendations.push_back(
            {QStringLiteral("Halve the batch size"), QStringLiteral("model"), notAlwaysLive / 2,
             QStringLiteral("Not-always-live variables (activations and temporaries) hold %1 on "
                            "tile %2 and grow with the batch; half the batch needs about half.%3")
                 .arg(bytesText(notAlwaysLive))
                 .arg(tile)
                 .arg(over(notAlwaysLive / 2))});
    std::stable_sort(a.recommendations.begin(), a.recommendations.end(),
                     [](const Recommendation& x, const Recommendation& y) {
                         return x.savingBytes > y.savingBytes;
                     });
    return a;
}

} // namespace tilescope::gui
