#include "ReplicaGroup.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/Collectives.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace tilescope::sim {

ReplicaGroup::ReplicaGroup(std::shared_ptr<const CompiledGraph> graph, unsigned replicas,
                           unsigned hostThreads)
    : graph_(std::move(graph)), waitingAt_(replicas, -1), finished_(replicas, false) {
    replicas_.reserve(replicas);
    for (unsigned r = 0; r < replicas; ++r) {
        replicas_.push_back(std::make_unique<BspEngine>(graph_, hostThreads, r));
        replicas_.back()->setCrossReplicaHandler(
            [this, r](std::uint32_t action) { collective(r, action); });
    }
}

ReplicaGroup::~ReplicaGroup() = default;

void ReplicaGroup::perform(std::uint32_t action) {
    const auto& a = graph_->collectives.at(action);
    const unsigned bytes = elementSize(a.source.type);
    // Each group combines its own members' data, in rank order.
    for (const auto& members : a.grouping.groups(size())) {
        const auto k = static_cast<unsigned>(members.size());
        const auto out = collectiveOutputElements(a.kind, a.source.numElements(), k);
        std::vector<std::vector<std::byte>> inputs, outputs;
        std::vector<const std::byte*> in;
        std::vector<std::byte*> outPtrs;
        for (unsigned r : members) {
            inputs.push_back(replicas_[r]->gather(a.source));
            outputs.emplace_back(out * bytes);
        }
        for (unsigned i = 0; i < k; ++i) {
            in.push_back(inputs[i].data());
            outPtrs.push_back(outputs[i].data());
        }
        try {
            computeCollective(a.kind, a.op, a.source.type, a.source.numElements(), in, outPtrs);
        } catch (const std::invalid_argument& e) {
            throw poplar::poplar_error(collectiveKindName(a.kind) + " of '" + a.source.name +
                                       "': " + e.what());
        }
        for (unsigned i = 0; i < k; ++i)
            replicas_[members[i]]->scatter(a.destination, outputs[i].data());
    }
}

void ReplicaGroup::fail(std::exception_ptr error) {
    if (!error_)
        error_ = std::move(error);
    aborted_ = true;
    changed_.notify_all();
}

void ReplicaGroup::passTurn(unsigned replica) {
    if (replica + 1 < size()) {
        turn_ = replica + 1;
    } else {
        // The last replica ended its run: nobody may still wait at a collective.
        for (unsigned r = 0; r < size(); ++r)
            if (waitingAt_[r] >= 0)
                fail(std::make_exception_ptr(poplar::poplar_error(
                    "replicas diverged: replica " + std::to_string(r) +
                    " waits at a cross-replica collective that replica " + std::to_string(replica) +
                    " never reached (every replica must run the same collectives)")));
    }
    changed_.notify_all();
}

void ReplicaGroup::collective(unsigned replica, std::uint32_t action) {
    if (size() == 1) {
        perform(action);
        return;
    }
    std::unique_lock lock(mutex_);
    if (replica + 1 < size()) {
        waitingAt_[replica] = action;
        turn_ = replica + 1;
        changed_.notify_all();
        changed_.wait(lock, [&] { return aborted_ || turn_ == replica; });
        if (aborted_)
            throw Aborted{};
        return;
    }
    // The last replica: every other one waits here, at the same collective.
    for (unsigned r = 0; r + 1 < size(); ++r)
        if (waitingAt_[r] != static_cast<std::int64_t>(action)) {
            fail(std::make_exception_ptr(poplar::poplar_error(
                "replicas diverged: replica " + std::to_string(replica) +
                " reached cross-replica collective '" + graph_->collectives[action].source.name +
                "' but replica " + std::to_string(r) +
                (finished_[r] ? " ended its run without it" : " waits at another collective") +
                " (every replica must run the same collectives)")));
            throw Aborted{};
        }
    try {
        perform(action);
    } catch (...) {
        fail(std::current_exception());
        throw Aborted{};
    }
    std::fill(waitingAt_.begin(), waitingAt_.end(), -1);
    turn_ = 0;
    changed_.notify_all();
    changed_.wait(lock, [&] { return aborted_ || turn_ == replica; });
    if (aborted_)
        throw Aborted{};
}

void ReplicaGroup::replicaMain(unsigned replica, unsigned program) {
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return aborted_ || turn_ == replica; });
        if (aborted_)
            return;
    }
    try {
        replicas_[replica]->run(program);
    } catch (const Aborted&) {
        return;
    } catch (...) {
        std::lock_guard lock(mutex_);
        fail(std::current_exception());
        return;
    }
    std::lock_guard lock(mutex_);
    finished_[replica] = true;
    passTurn(replica);
}

void ReplicaGroup::run(unsigned program) {
    if (size() == 1) {
        replicas_[0]->run(program);
        return;
    }
    turn_ = 0;
    aborted_ = false;
    error_ = nullptr;
    std::fill(waitingAt_.begin(), waitingAt_.end(), -1);
    std::fill(finished_.begin(), finished_.end(), false);
    std::vector<std::thread> threads;
    threads.reserve(size());
    for (unsigned r = 0; r < size(); ++r)
        threads.emplace_back([this, r, program] { replicaMain(r, program); });
    for (auto& t : threads)
        t.join();
    if (error_)
        std::rethrow_exception(error_);
}

void BroadcastHistory::record(const std::byte* data, std::size_t bytes) {
    transfers_.emplace_back(data, data + bytes);
}

void BroadcastHistory::take(unsigned replica, std::byte* out, std::size_t bytes) {
    const std::size_t index = taken_.at(replica);
    if (index < dropped_ || index - dropped_ >= transfers_.size())
        throw poplar::poplar_error("a BROADCAST stream's transfer was read by replica " +
                                   std::to_string(replica) +
                                   " before replica 0 received it from the host");
    const auto& t = transfers_[index - dropped_];
    std::memcpy(out, t.data(), std::min(bytes, t.size()));
    ++taken_[replica];
    // Replica 0 records; the others take. Drop what all of them have taken.
    if (taken_.size() < 2)
        return;
    const std::size_t oldest = *std::min_element(taken_.begin() + 1, taken_.end());
    while (dropped_ < oldest && !transfers_.empty()) {
        transfers_.pop_front();
        ++dropped_;
    }
}

} // namespace tilescope::sim
