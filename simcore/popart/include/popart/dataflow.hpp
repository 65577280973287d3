#pragma once
// DataFlow: batches per step and the anchors (tensors returned to the host) with how often.

#include <map>
#include <popart/names.hpp>
#include <string>
#include <vector>

namespace popart {

/// How often an anchor is returned in a step of batchesPerStep batches: every batch (All),
/// the last batch (Final), every N-th batch (EveryN), or summed over the step (Sum).
enum class AnchorReturnTypeId { Final = 0, EveryN, All, Sum };

/// An anchor's return type, made from PopART's strings "FINAL", "EVERYN" (with a return
/// period), "ALL" or "SUM" (any case). Throws popart::error for other strings.
class AnchorReturnType {
public:
    AnchorReturnType();
    explicit AnchorReturnType(const std::string& artString);
    AnchorReturnType(const std::string& artString, int returnPeriod);

    AnchorReturnTypeId id() const { return id_; }
    /// The return period of EveryN (0 for the other kinds).
    int rp() const { return returnPeriod_; }
    const std::string& str() const { return str_; }

private:
    AnchorReturnTypeId id_;
    int returnPeriod_;
    std::string str_;
};

/// The batches one Session::run executes and the anchors it returns.
class DataFlow {
public:
    DataFlow();
    explicit DataFlow(int batchesPerStep);
    DataFlow(int batchesPerStep, const std::map<TensorId, AnchorReturnType>& anchors);
    DataFlow(int batchesPerStep, const std::vector<TensorId>& anchorIds,
             const AnchorReturnType& art = AnchorReturnType("All"));

    int batchesPerStep() const { return batchesPerStep_; }
    bool isAnchored(const TensorId& id) const { return anchors_.count(id) != 0; }
    const std::vector<TensorId>& anchors() const { return anchorIds_; }
    int nAnchors() const { return static_cast<int>(anchorIds_.size()); }
    /// The return type of anchor `id`; throws popart::error when `id` is no anchor.
    const AnchorReturnType& art(const TensorId& id) const;
    const std::map<TensorId, AnchorReturnType>& getAnchorReturnTypeMap() const { return anchors_; }

private:
    void check() const;
    int batchesPerStep_;
    std::map<TensorId, AnchorReturnType> anchors_;
    std::vector<TensorId> anchorIds_;
};

} // namespace popart
