// Host I/O as the Poplar SDK does it: StreamCallback objects and their prefetch / fetch /
// complete protocol, connections made before Engine::load, remote buffers with offsets,
// copies between tensors of different shapes, and scalar values in addVertex connection lists.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>
#include <string>
#include <tilescope/capture/ProfileRecords.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using Catch::Matchers::Contains;

namespace {

/// Feeds 3 ints per transfer counting up from `next`, logging every call; prefetch succeeds
/// while `canPrefetch` is set.
struct LoggingCallback : StreamCallback {
    std::vector<std::string>* log;
    int next = 0;
    bool canPrefetch = true;
    explicit LoggingCallback(std::vector<std::string>* l) : log(l) {}
    void fill(void* p) {
        int* v = static_cast<int*>(p);
        for (int i = 0; i < 3; ++i)
            v[i] = next++;
    }
    Result prefetch(void* p) override {
        log->push_back(canPrefetch ? "prefetch" : "prefetch-none");
        if (!canPrefetch)
            return Result::NotAvailable;
        fill(p);
        return Result::Success;
    }
    void fetch(void* p) override {
        log->push_back("fetch");
        fill(p);
    }
    void complete() override { log->push_back("complete"); }
    void invalidatePrefetched() override { log->push_back("invalidate"); }
};

struct SumCallback : LegacyStreamCallback {
    long* sum;
    explicit SumCallback(long* s) : sum(s) {}
    void fetch(void* p) override {
        const int* v = static_cast<const int*>(p);
        *sum += v[0] + v[1] + v[2];
    }
};

} // namespace

TEST_CASE("stream callbacks follow the prefetch, fetch, complete protocol", "[engine][streams]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor t = g.addVariable(INT, {3}, "t");
    g.setTileMapping(t, 1);
    DataStream in = g.addHostToDeviceFIFO("in", INT, 3);
    DataStream out = g.addDeviceToHostFIFO("out", INT, 3);
    Engine e(g, Repeat(2, Sequence{Copy(in, t), Copy(t, out)}));
    std::vector<std::string> log;
    auto cb = std::unique_ptr<LoggingCallback>(new LoggingCallback(&log));
    LoggingCallback* feeder = cb.get();
    long sum = 0;
    // Connected before load, as SDK programs often do; the replica-index form as well.
    e.connectStreamToCallback("in", std::move(cb));
    e.connectStreamToCallback("out", 0, std::unique_ptr<SumCallback>(new SumCallback(&sum)));
    e.load(device);
    e.run();
    // The first copy fetches; each later one takes what prefetch produced after the last.
    CHECK(log == std::vector<std::string>{"fetch", "complete", "prefetch", "complete", "prefetch"});
    CHECK(sum == (0 + 1 + 2) + (3 + 4 + 5));
    // Data prefetched at the end of a run is what the next run's first copy gets.
    log.clear();
    feeder->canPrefetch = false;
    e.run();
    CHECK(log == std::vector<std::string>{"complete", "prefetch-none", "fetch", "complete",
                                          "prefetch-none"});
    CHECK(sum == 15 + (6 + 7 + 8) + (9 + 10 + 11));
    // Reconnecting drops prefetched data and says so.
    feeder->canPrefetch = true;
    e.run();
    log.clear();
    e.connectStreamToCallback("in", [](void* p) { static_cast<int*>(p)[0] = 7; });
    CHECK(log == std::vector<std::string>{"invalidate"});
}

TEST_CASE("exchange.enablePrefetch=false and maxLookahead 0 turn callback prefetch off",
          "[engine][streams][options]") {
    for (const auto& option : std::vector<std::pair<std::string, std::string>>{
             {"exchange.enablePrefetch", "false"}, {"streamCallbacks.maxLookahead", "0"}}) {
        INFO(option.first);
        Device device = IPUModel().createDevice();
        Graph g(device.getTarget());
        Tensor t = g.addVariable(INT, {3}, "t");
        g.setTileMapping(t, 1);
        DataStream in = g.addHostToDeviceFIFO("in", INT, 3);
        g.createHostRead("t", t);
        Engine e(g, Repeat(2, Copy(in, t)), OptionFlags{{option.first, option.second}});
        std::vector<std::string> log;
        e.connectStreamToCallback("in",
                                  std::unique_ptr<LoggingCallback>(new LoggingCallback(&log)));
        e.load(device);
        e.run();
        // Every transfer is fetched when its copy runs; prefetch() is never called.
        CHECK(log == std::vector<std::string>{"fetch", "complete", "fetch", "complete"});
        std::vector<int> last(3);
        e.readTensor("t", last.data(), last.data() + 3);
        CHECK(last == std::vector<int>{3, 4, 5});
    }
}

TEST_CASE("streams connected before load are bound at load", "[engine][streams]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor t = g.addVariable(FLOAT, {2}, "t");
    g.setTileMapping(t, 0);
    DataStream in = g.addHostToDeviceFIFO("in", FLOAT, 2);
    DataStream out = g.addDeviceToHostFIFO("out", FLOAT, 2);
    Engine e(g, Sequence{Copy(in, t), Copy(t, out)});
    std::vector<float> src = {1.5f, -2.0f}, dst(2);
    e.connectStream("in", src.data());
    e.connectStream("out", dst.data(), dst.data() + dst.size());
    // Errors are not deferred to load().
    CHECK_THROWS_AS(e.connectStream("nope", src.data()), stream_connection_error);
    CHECK_THROWS_AS(e.connectStream("in", src.data(), src.data() + 1), stream_connection_error);
    CHECK_THROWS_AS(e.connectStreamToCallback("in", 1, [](void*) {}), index_error);
    e.load(device);
    e.run();
    CHECK(dst == src);
}

TEST_CASE("remote buffers round-trip through offsets", "[engine][remote]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    RemoteBuffer rb = g.addRemoteBuffer("store", INT, 4, 3);
    CHECK(rb.handle() == "store");
    CHECK(rb.elementType() == INT);
    CHECK(rb.numElements() == 4);
    CHECK(rb.getRepeats() == 3);
    CHECK_THROWS_AS(g.addRemoteBuffer("store", INT, 4), poplar_error);

    Tensor row = g.addVariable(INT, {2, 2}, "row");
    Tensor rows = g.addVariable(INT, {2, 4}, "rows");
    Tensor offset = g.addVariable(UNSIGNED_INT, {}, "offset");
    Tensor offsets = g.addVariable(UNSIGNED_INT, {2}, "offsets");
    for (const Tensor& x : {row, rows, offset, offsets})
        g.setTileMapping(x, 3);
    g.createHostWrite("row", row);
    g.createHostRead("rows", rows);
    g.createHostWrite("offset", offset);
    g.setInitialValue(offsets, ArrayRef<unsigned>({2, 0}));
    // Program 0 writes `row` to the row `offset` selects; program 1 reads rows 2 and 0 back.
    Engine e(g, {Copy(row, rb, offset), Copy(rb, rows, offsets)});
    e.load(device);
    const std::vector<int> initial = {1, 2, 3, 4};
    e.copyToRemoteBuffer(initial.data(), "store", 0);
    std::vector<int> host = {10, 20, 30, 40};
    unsigned at = 2;
    e.writeTensor("row", host.data(), host.data() + 4);
    e.writeTensor("offset", &at, &at + 1);
    e.run(0);
    std::vector<int> back(4);
    e.copyFromRemoteBuffer("store", back.data(), 2);
    CHECK(back == host);
    e.copyFromRemoteBuffer("store", back.data(), 1);
    CHECK(back == std::vector<int>{0, 0, 0, 0}); // rows start zeroed
    e.run(1);
    std::vector<int> both(8);
    e.readTensor("rows", both.data(), both.data() + 8);
    CHECK(both == std::vector<int>{10, 20, 30, 40, 1, 2, 3, 4});
    // The copies show in the profile as host exchange: Sync + StreamCopyBegin/Mid/End.
    // Two copies of 16 and 32 bytes, both through tile 3.
    using tilescope::capture::StepKind;
    std::vector<std::uint64_t> midBytes;
    for (const auto& s : e.compileRecords().steps)
        if (s.kind == StepKind::StreamCopyMid && s.name == "store") {
            CHECK(s.estimatedCyclesPerTile[3] > 0);
            midBytes.push_back(s.exchangeBytesPerTile[3]);
        }
    CHECK(midBytes == std::vector<std::uint64_t>{16, 32});
    // Executed: the first run wrote one row, the second read two.
    const auto& runs = e.executionRecords().runs;
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].totalCycles > 0);

    CHECK_THROWS_AS(e.copyToRemoteBuffer(initial.data(), "store", 3), index_error);
    CHECK_THROWS_AS(e.copyFromRemoteBuffer("store", back.data(), 0, 1), index_error);
    CHECK_THROWS_WITH(e.copyFromRemoteBuffer("nope", back.data(), 0), Contains("'nope'"));
    at = 3;
    e.writeTensor("offset", &at, &at + 1);
    CHECK_THROWS_WITH(e.run(0), Contains("offset 3 is out of range"));
}

TEST_CASE("remote buffer copies check types and sizes", "[remote][errors]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    RemoteBuffer rb = g.addRemoteBuffer("rb", FLOAT, 3, 2);
    Tensor f = g.addVariable(FLOAT, {3}, "f");
    Tensor wrong = g.addVariable(FLOAT, {4}, "wrong");
    Tensor i = g.addVariable(INT, {3}, "i");
    Tensor signedOffset = g.addVariable(INT, {}, "signedOffset");
    CHECK_THROWS_AS(Copy(rb, i), type_error);
    CHECK_THROWS_WITH(Copy(wrong, rb), Contains("'wrong'") && Contains("{4}"));
    CHECK_THROWS_AS(Copy(rb, f, signedOffset), type_error);
    CHECK_NOTHROW(Copy(rb, f));
}

TEST_CASE("copies between shapes with the same number of elements", "[engine][copy]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor a = g.addVariable(FLOAT, {3}, "a");
    Tensor b = g.addVariable(FLOAT, {1, 3}, "b");
    Tensor c = g.addVariable(FLOAT, {2, 2}, "c");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    g.setTileMapping(c, 1);
    g.setInitialValue(a, ArrayRef<float>({1, 2, 3}));
    g.createHostRead("b", b);
    Engine e(g, Copy(a, b));
    e.load(device);
    e.run();
    std::vector<float> out(3);
    e.readTensor("b", out.data(), out.data() + 3);
    CHECK(out == std::vector<float>{1, 2, 3});
    CHECK_THROWS_WITH(Copy(a, c), Contains("{3}") && Contains("{2,2}"));
}

TEST_CASE("scalar values in addVertex connection lists set vertex state", "[codelets][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(simtest::testCodelet("host_io_codelets.cpp"));
    Tensor in = g.addVariable(FLOAT, {3}, "in");
    Tensor out = g.addVariable(FLOAT, {3}, "out");
    g.setTileMapping(in, 0);
    g.setTileMapping(out, 0);
    g.setInitialValue(in, ArrayRef<float>({1, 2, 3}));
    g.createHostRead("out", out);
    ComputeSet cs = g.addComputeSet("cs");
    VertexRef v = g.addVertex(cs, "AxpyN", {{"in", in}, {"out", out}, {"n", 5u}, {"x", 1.5f}});
    g.setTileMapping(v, 0);
    Engine e(g, Execute(cs));
    e.load(device);
    e.run();
    std::vector<float> result(3);
    e.readTensor("out", result.data(), result.data() + 3);
    CHECK(result == std::vector<float>{6.5f, 8.0f, 9.5f});

    // Integer literals of other types fit; a fractional value in an integral field does not.
    CHECK_NOTHROW(g.addVertex(cs, "AxpyN", {{"n", 7}, {"x", 2}}));
    CHECK_THROWS_WITH(g.addVertex(cs, "AxpyN", {{"n", 1.5f}}),
                      Contains("'n'") && Contains("floating-point"));
    CHECK_THROWS_AS(g.addVertex(cs, "AxpyN", {{"n", -1}}), type_error);
    CHECK_THROWS_AS(g.addVertex(cs, "AxpyN", {{"in", 2.0f}}), graph_connection_error);
}

TEST_CASE("an empty Sequence can be copy-list-initialised", "[program]") {
    Sequence s = {};
    CHECK(s.isEmpty());
    Sequence t{Sequence{}, s};
    CHECK_FALSE(t.isEmpty());
}
