// Writes the fuzz seed corpus: small valid reports from the real writers, rewritten with 512-byte
// pages so that the fuzzer's mutations land on schema, metadata, rows and blobs rather than on
// empty page space.
//
//   make_seed_corpus DIR

#include "SmallReport.hpp"

#include <filesystem>
#include <iostream>
#include <sqlite3.h>

namespace fs = std::filesystem;
using namespace tilescope::testing;

namespace {

void shrinkPages(const fs::path& path) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM", nullptr,
                     nullptr, nullptr) != SQLITE_OK)
        throw std::runtime_error(path.string() + ": " + sqlite3_errmsg(db));
    sqlite3_close(db);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: make_seed_corpus DIR\n";
        return 2;
    }
    const fs::path dir = argv[1];
    try {
        fs::create_directories(dir);
        writeSmallProfile(dir / "profile.pop", 2, 40);
        writeSmallHostTrace(dir / "host.pvti", 60);
        {
            ProfileWriter w(dir / "oom.pop");
            writeCompileProfile(w, 1, 4);
            w.finishCompilation(true);
            w.close();
        }
        for (const char* name : {"profile.pop", "host.pvti", "oom.pop"})
            shrinkPages(dir / name);
    } catch (const std::exception& e) {
        std::cerr << "make_seed_corpus: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
