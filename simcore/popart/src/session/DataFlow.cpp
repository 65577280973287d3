#include <algorithm>
#include <cctype>
#include <popart/dataflow.hpp>
#include <popart/error.hpp>

namespace popart {

namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

AnchorReturnTypeId parseArt(const std::string& s) {
    const std::string u = upper(s);
    if (u == "FINAL")
        return AnchorReturnTypeId::Final;
    if (u == "EVERYN")
        return AnchorReturnTypeId::EveryN;
    if (u == "ALL")
        return AnchorReturnTypeId::All;
    if (u == "SUM")
        return AnchorReturnTypeId::Sum;
    throw error("AnchorReturnType: unknown return type '" + s +
                "' (expected FINAL, EVERYN, ALL or SUM)");
}

} // namespace

AnchorReturnType::AnchorReturnType()
    : id_(AnchorReturnTypeId::All), returnPeriod_(0), str_("ALL") {}

AnchorReturnType::AnchorReturnType(const std::string& artString)
    : id_(parseArt(artString)), returnPeriod_(0), str_(upper(artString)) {
    if (id_ == AnchorReturnTypeId::EveryN)
        throw error("AnchorReturnType: EVERYN needs a return period");
}

AnchorReturnType::AnchorReturnType(const std::string& artString, int returnPeriod)
    : id_(parseArt(artString)), returnPeriod_(returnPeriod), str_(upper(artString)) {
    if (id_ == AnchorReturnTypeId::EveryN && returnPeriod <= 0)
        throw error("AnchorReturnType: the return period of EVERYN must be positive, not " +
                    std::to_string(returnPeriod));
    if (id_ != AnchorReturnTypeId::EveryN)
        returnPeriod_ = 0;
}

DataFlow::DataFlow() : batchesPerStep_(0) {}

DataFlow::DataFlow(int batchesPerStep) : batchesPerStep_(batchesPerStep) {
    check();
}

DataFlow::DataFlow(int batchesPerStep, const std::map<TensorId, AnchorReturnType>& anchors)
    : batchesPerStep_(batchesPerStep), anchors_(anchors) {
    for (const auto& a : anchors)
        anchorIds_.push_back(a.first);
    check();
}

DataFlow::DataFlow(int batchesPerStep, const std::vector<TensorId>& anchorIds,
                   const AnchorReturnType& art)
    : batchesPerStep_(batchesPerStep), anchorIds_(anchorIds) {
    for (const auto& id : anchorIds)
        anchors_[id] = art;
    check();
}

const AnchorReturnType& DataFlow::art(const TensorId& id) const {
    auto it = anchors_.find(id);
    if (it == anchors_.end())
        throw error("DataFlow: '" + id + "' is not an anchor");
    return it->second;
}

void DataFlow::check() const {
    if (batchesPerStep_ <= 0)
        throw error("DataFlow: batchesPerStep must be positive, not " +
                    std::to_string(batchesPerStep_));
    for (const auto& a : anchors_)
        if (a.second.id() == AnchorReturnTypeId::EveryN && batchesPerStep_ % a.second.rp() != 0)
            throw error("DataFlow: the return period " + std::to_string(a.second.rp()) +
                        " of anchor '" + a.first + "' does not divide batchesPerStep " +
                        std::to_string(batchesPerStep_));
}

} // namespace popart
